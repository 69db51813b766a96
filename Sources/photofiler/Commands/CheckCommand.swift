/// `photofiler check [--repair]`: catalog against disk.
struct CheckCommand: Command {
    static let name = "check"
    static let help = """
        usage: photofiler check [--repair] [--library DIR] [--json]
        Compares the catalog with the files on disk (every roll file is hashed). Exit 0 when they agree;
        exit 1 listing each difference, one a line. With --repair, makes the catalog match the disk.
        """

    let repair: Bool

    init(_ arguments: inout Arguments) throws(UsageError) {
        repair = arguments.flag("--repair")
        let extra = try arguments.operands()
        if !extra.isEmpty { throw UsageError("'check' takes no operands; see 'photofiler check --help'.") }
    }

    func run(_ context: Context) -> Int32 {
        guard let library = context.openLibrary() else { return 1 }
        do {
            let differences = try library.reconciler.differences(verifyHashes: true)
            if repair {
                _ = try library.reconciler.removeTemporaryFiles()
                let mended = try library.reconciler.repair(differences)
                let left = try library.reconciler.differences(verifyHashes: false)
                for difference in left { Output.line(difference.description) }
                if context.json { Output.json(["repaired": mended, "remaining": left.count]) }
                context.log.info(
                    "Repaired \(mended) difference(s); \(left.count) left (album entries that are not roll assets are never deleted)."
                )
                return left.contains(where: {
                    if case .strayAlbumEntry = $0 { return false } else { return true }
                }) ? 1 : 0
            }
            if context.json {
                Output.json(differences.map(\.description))
            } else {
                for difference in differences { Output.line(difference.description) }
            }
            return differences.isEmpty ? 0 : 1
        } catch {
            context.fail(error.description)
            return 1
        }
    }
}

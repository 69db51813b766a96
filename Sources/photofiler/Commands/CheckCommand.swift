import PhotoFilerCatalog
import PhotoFilerFiling

/// `photofiler check [--repair]`: catalog against disk.
struct CheckCommand: Command {
    static let name = "check"
    static let help = """
        usage: photofiler check [--repair] [--quiet] [--library DIR] [--json]
        Compares the catalog with the files on disk (every roll file is hashed). Exit 0 when they agree;
        exit 1 listing each difference, one a line. With --repair, makes the catalog match the disk.
        Long work shows a progress bar on a terminal, plain lines on stderr otherwise (none with --quiet).
        """

    let repair: Bool
    let quiet: Bool

    init(_ arguments: inout Arguments) throws(UsageError) {
        repair = arguments.flag("--repair")
        quiet = arguments.flag("--quiet")
        let extra = try arguments.operands()
        if !extra.isEmpty { throw UsageError("'check' takes no operands; see 'photofiler check --help'.") }
    }

    func run(_ context: Context) -> Int32 {
        guard let library = context.openLibrary() else { return 1 }
        let style = ProgressDisplay.style(json: context.json, quiet: quiet)
        do {
            let hashing = ProgressTracker("Checking", unit: "roll file", style: style)
            let adopting = ProgressTracker("Adopting", unit: "roll file", style: style)
            defer {
                hashing.finish()
                adopting.finish()
            }
            let report = try library.check(
                repair: repair, hashing: hashing.advance, adopting: adopting.advance)
            if let mended = report.repaired {
                if context.json {
                    // One JSON object on stdout, the differences left inside it.
                    Output.json(
                        RepairReport(
                            repaired: mended, remaining: report.remaining.count,
                            differences: report.remaining.map(\.description)))
                } else {
                    for difference in report.remaining { Output.line(difference.description) }
                }
                context.log.info(
                    "Repaired \(mended) difference(s); \(report.remaining.count) left, listed on stdout (an album entry that is not a roll asset is never deleted; a warning says why any other is left)."
                )
                thumbnails(ofWhatWasMended: report.differences, in: library, context)
            } else if context.json {
                Output.json(report.differences.map(\.description))
            } else {
                for difference in report.differences { Output.line(difference.description) }
            }
            return report.isClean ? 0 : 1
        } catch {
            context.fail(error.description)
            return 1
        }
    }
}

extension CheckCommand {
    /// Adopted or re-hashed assets get their thumbnails now, as saved ones do, once
    /// the report is out.
    private func thumbnails(
        ofWhatWasMended differences: [Difference], in library: PhotoLibrary, _ context: Context
    ) {
        let assets: [AssetRecord]
        do {
            assets = try library.assetsWithNewContent(after: differences)
        } catch {
            context.log.warning("The thumbnails of what was repaired are not made now: \(error)")
            return
        }
        context.makeThumbnails(
            of: assets.map(\.id), in: library, style: ProgressDisplay.style(json: context.json, quiet: quiet))
    }
}

/// `check --repair --json`: what was mended and what is left, as one object.
private struct RepairReport: Encodable {
    let repaired: Int
    let remaining: Int
    let differences: [String]
}

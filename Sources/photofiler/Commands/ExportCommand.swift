import PhotoFilerCatalog
import PhotoFilerFiling
import PhotoFilerSystem

/// `photofiler export ID --video [-o FILE]`: a Live Photo's video.
struct ExportCommand: Command {
    static let name = "export"
    static let help = """
        usage: photofiler export ID --video [-o FILE] [--library DIR]
        Writes a Live Photo's paired video, or the video a motion photo carries inside its file, to FILE
        (stdout when there is no -o, or -o -).
        """

    let id: AssetID
    let output: BytePath?

    init(_ arguments: inout Arguments) throws(UsageError) {
        guard arguments.flag("--video") else {
            throw UsageError(
                "'export' writes a Live Photo's video: give --video; see 'photofiler export --help'.")
        }
        output = try arguments.value("-o")
        let ids = try parseIDs(try arguments.operands(), command: Self.name)
        guard ids.count == 1 else { throw UsageError("Give one asset id; see 'photofiler export --help'.") }
        id = ids[0]
    }

    func run(_ context: Context) -> Int32 {
        guard let library = context.openLibrary() else { return 1 }
        do {
            try library.exportLiveVideo(id, toFile: output == "-" ? nil : output)
            return 0
        } catch {
            context.fail(error.description)
            return 1
        }
    }
}

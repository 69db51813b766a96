import PhotoFilerFiling
import PhotoFilerSystem

/// `photofiler info`: one asset, by id or by any path of it.
struct InfoCommand: Command {
    static let name = "info"
    static let help = """
        usage: photofiler info ID|PATH [--library DIR] [--json]
        Shows one asset, found by its id or by any path of it: its roll file, an album entry, or a copy.
        """

    let reference: BytePath

    init(_ arguments: inout Arguments) throws(UsageError) {
        let operands = try arguments.operands()
        guard operands.count == 1 else {
            throw UsageError("Give one asset id or path; see 'photofiler info --help'.")
        }
        reference = operands[0]
    }

    func run(_ context: Context) -> Int32 {
        guard let library = context.openLibrary() else { return 1 }
        do {
            guard let asset = try library.asset(matching: reference) else {
                context.fail(
                    "'\(reference.display)' is not an asset of this library; 'photofiler list' shows them.")
                return 1
            }
            let albums = try library.catalog.albumNames(ofAsset: asset.id)
            let json = AssetJSON(asset, albums: albums, layout: library.layout)
            if context.json {
                Output.json(json)
            } else {
                Output.line("id: \(json.id)")
                Output.line("path: \(json.path)")
                Output.line("albums: \(albums.joined(separator: ", "))")
                Output.line(
                    "type: \(json.mediaType) (\(json.mimeType))\(json.subtypes.isEmpty ? "" : ", " + json.subtypes.joined(separator: ", "))"
                )
                Output.line("created: \(json.created) (from \(json.createdSource))")
                Output.line("added: \(json.added)")
                Output.line(
                    "size: \(json.width)x\(json.height), orientation \(json.orientation), \(json.size) bytes")
                Output.line("hash: \(json.hash)")
                Output.line("original name: \(json.originalName)")
                Output.line("favorite: \(json.favorite ? "yes" : "no")")
                Output.line("hidden: \(json.hidden ? "yes" : "no")")
                if let video = json.liveVideo {
                    let place = video.path ?? "inside the still's file"
                    Output.line("live video: \(place), \(video.size) bytes")
                }
                if let deleted = json.deleted { Output.line("deleted: \(deleted)") }
            }
            return 0
        } catch {
            context.fail("\(error)")
            return 1
        }
    }
}

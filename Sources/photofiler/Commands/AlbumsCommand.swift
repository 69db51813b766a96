import Foundation
import PhotoFilerCatalog
import PhotoFilerFiling

/// `photofiler albums`: user and smart albums with count and cover.
struct AlbumsCommand: Command {
    static let name = "albums"
    static let help = """
        usage: photofiler albums [--library DIR] [--json]
        Lists the albums, user and smart, with how many assets each holds and its cover (the newest added).
        """

    init(_ arguments: inout Arguments) throws(UsageError) {
        let extra = try arguments.operands()
        if !extra.isEmpty { throw UsageError("'albums' takes no operands; see 'photofiler albums --help'.") }
    }

    func run(_ context: Context) -> Int32 {
        guard let library = context.openLibrary() else { return 1 }
        let summaries: [AlbumSummary]
        do {
            summaries = try library.catalog.albumSummaries(now: Date().timeIntervalSince1970)
        } catch {
            context.fail(error.description)
            return 1
        }
        if context.json {
            var albums: [AlbumJSON] = []
            do throws(CatalogError) {
                for summary in summaries {
                    // A cover that could not be read is a failure, not an album without a cover.
                    var hash: String?
                    if let cover = summary.cover { hash = try library.catalog.asset(id: cover)?.hash }
                    albums.append(AlbumJSON(summary, layout: library.layout, coverHash: hash))
                }
            } catch {
                context.fail(error.description)
                return 1
            }
            Output.json(albums)
            return 0
        }
        for summary in summaries {
            let kind: String
            switch summary.kind {
            case .user: kind = "user"
            case .smart: kind = "smart"
            }
            let cover = summary.cover.map { "cover \($0)" } ?? "no cover"
            Output.line("\(summary.name)\t\(kind)\t\(summary.count)\t\(cover)")
        }
        return 0
    }
}

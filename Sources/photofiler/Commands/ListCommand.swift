import Foundation
import PhotoFilerCatalog
import PhotoFilerFiling
import PhotoFilerMediaTypes

/// `photofiler list`: assets, newest first.
struct ListCommand: Command {
    static let name = "list"
    static let help = """
        usage: photofiler list [--album NAME] [--media image|video|live] [--sort added|created] [--limit N] [--library DIR] [--json]
        Lists assets, newest first. --album takes a user album or a smart one (Videos, Live Photos, Animated,
        Screenshots, Panoramas, Selfies, Portraits, Bursts, Slo-mo, Time-lapse, RAW, Recently Added, Favorites,
        Hidden, Recently Deleted). --media live: Live Photos and motion photos.
        """

    let album: AlbumName?
    let media: MediaChoice?
    let sort: AssetQuery.Sort
    let limit: Int?

    init(_ arguments: inout Arguments) throws(UsageError) {
        album = try parseAlbumName(try arguments.value("--album"))
        media = try arguments.choice("--media", MediaChoice.self)
        let sortText = try arguments.string("--sort") ?? "added"
        guard let sort = AssetQuery.Sort(rawValue: sortText) else {
            throw UsageError("The option --sort takes added or created, not '\(sortText)'.")
        }
        self.sort = sort
        limit = try arguments.integer("--limit", in: 0...Int(Int32.max))
        let extra = try arguments.operands()
        if !extra.isEmpty { throw UsageError("'list' takes no operands; see 'photofiler list --help'.") }
    }

    func run(_ context: Context) -> Int32 {
        guard let library = context.openLibrary() else { return 1 }
        do {
            let assets = try library.assets(
                album: album, media: media?.mediaType, livePhotosOnly: media == .live, sort: sort,
                limit: limit,
                now: Date().timeIntervalSince1970)
            if context.json {
                var rows: [AssetJSON] = []
                rows.reserveCapacity(assets.count)
                for asset in assets {
                    rows.append(
                        AssetJSON(
                            asset, albums: try library.albumNames(of: asset.id),
                            layout: library.layout))
                }
                Output.json(rows)
            } else {
                for asset in assets {
                    let created = DateText.iso8601(asset.created)
                    let size = "\(asset.info.displayWidth)x\(asset.info.displayHeight)"
                    Output.line(
                        "\(asset.id)\t\(created)\t\(asset.info.mediaType.rawValue)\t\(size)\t\(library.layout.absolute(asset.currentPath).display)"
                    )
                }
            }
            return 0
        } catch {
            context.fail(error.description)
            return 1
        }
    }
}

/// What `--media` takes: a media type, or Live Photos (which are images).
enum MediaChoice: String, CaseIterable {
    case image, video, live

    var mediaType: MediaType? {
        switch self {
        case .image: return .image
        case .video: return .video
        case .live: return nil
        }
    }
}

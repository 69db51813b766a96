import PhotoFilerCatalog
import PhotoFilerDaemon
import PhotoFilerFiling
import PhotoFilerSystem

/// `photofiler save`: files the given files now, through the daemon's pipeline.
struct SaveCommand: Command {
    static let name = "save"
    static let help = """
        usage: photofiler save [--album NAME] [--move] [--link hard|symbolic] [--quiet] [--library DIR] [--json] FILE…
        Files each FILE into the library now, the way the daemon would, and prints each asset id.
        The files stay where they are unless --move is given. Exit 1 if any file could not be filed.
        Thumbnails are made next on every core, or by the daemon when one watches the library.
        Long work shows a progress bar on a terminal, plain lines on stderr otherwise (none with --quiet).
        """

    /// Files filed together: as many as the daemon's largest group.
    static let filesPerGroup = 256

    let album: AlbumName?
    let move: Bool
    let link: LinkKind
    let files: [BytePath]
    let quiet: Bool

    init(_ arguments: inout Arguments) throws(UsageError) {
        album = try parseAlbumName(try arguments.value("--album"))
        quiet = arguments.flag("--quiet")
        move = arguments.flag("--move")
        link = try arguments.choice("--link", LinkKind.self) ?? .hard
        files = try arguments.operands()
        if files.isEmpty { throw UsageError("Give at least one file to save; see 'photofiler save --help'.") }
    }

    func run(_ context: Context) -> Int32 {
        guard let library = context.openLibrary() else { return 1 }
        var status: Int32 = 0
        var results: [AssetJSON] = []
        var filed: [AssetID] = []
        var seen: Set<AssetID> = []
        let style = ProgressDisplay.style(json: context.json, quiet: quiet)
        let progress = ProgressDisplay("Saving", total: files.count, style: style)
        let requests = files.map { file in
            FilingRequest(source: file, album: album, origin: "save", mode: move ? .move : .copy, link: link)
        }
        // In groups, as the daemon files: each shares its syncs and its one transaction.
        for start in stride(from: 0, to: requests.count, by: Self.filesPerGroup) {
            let group = Array(requests[start..<min(start + Self.filesPerGroup, requests.count)])
            for (request, outcome) in zip(group, library.filer.file(group)) {
                defer { progress.advance() }
                let file = request.source
                do {
                    let result = try outcome.get()
                    guard let asset = result.asset else { continue }
                    if seen.insert(asset.id).inserted { filed.append(asset.id) }
                    if context.json {
                        let albums = (try? library.catalog.albumNames(ofAsset: asset.id)) ?? []
                        results.append(AssetJSON(asset, albums: albums, layout: library.layout))
                    } else {
                        Output.line(String(asset.id))
                    }
                    if context.verbose {
                        context.log.info(
                            "'\(file.display)' → '\((result.rollPath ?? asset.rollPath).display)' (\(describe(result.outcome)))"
                        )
                    }
                } catch {
                    context.fail(error.description)
                    status = 1
                }
            }
        }
        progress.finish()
        // After filing, never before: a file that gives no thumbnail is still filed.
        context.makeThumbnails(of: filed, in: library, style: style)
        if context.json { Output.json(results) }
        return status
    }

    private func describe(_ outcome: FilingResult.Outcome) -> String {
        switch outcome {
        case .filed: return "new"
        case .duplicate(let joined): return joined ? "duplicate, joined the album" : "duplicate"
        case .restored: return "restored from Recently Deleted"
        case .alreadySeen: return "seen before"
        }
    }
}

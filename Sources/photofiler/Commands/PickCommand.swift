import Dispatch
import Glibc
import PhotoFilerCatalog
import PhotoFilerDaemon
import PhotoFilerFiling
import PhotoFilerServer
import PhotoFilerSystem

/// `photofiler pick`: the library's picker in the user's browser, for scripts.
struct PickCommand: Command {
    static let name = "pick"
    static let help = """
        usage: photofiler pick [--media image|video|live] [--limit N] [--album NAME] [--library DIR] [--json]
        Opens the picker in the browser (xdg-open, which honours $BROWSER) on a private loopback port and
        prints the roll paths of the picked assets, one a line (--json: an array of 'info --json' objects).
        The browser is given a file only the user can read ($XDG_RUNTIME_DIR, else $TMPDIR or /tmp) that
        leads to the picker: its token is never on a command line.
        Exit 0 when assets were picked, 1 when the picker was cancelled.
        """

    enum Media: String, CaseIterable { case image, video, live }

    let media: Media?
    let limit: Int?
    let album: AlbumName?

    init(_ arguments: inout Arguments) throws(UsageError) {
        media = try arguments.choice("--media", Media.self)
        limit = try arguments.integer("--limit", in: 1...10_000)
        album = try parseAlbumName(try arguments.value("--album"))
        let extra = try arguments.operands()
        if !extra.isEmpty { throw UsageError("'pick' takes no operands; see 'photofiler pick --help'.") }
    }

    func run(_ context: Context) -> Int32 {
        guard let library = context.openLibrary() else { return 1 }
        do {
            if let album, try library.album(named: album) == nil {
                context.fail("There is no album named '\(album)'; 'photofiler albums' lists them.")
                return 1
            }
            let catalog = CatalogAccess(catalog: library.catalog, layout: library.layout)
            let json = context.json
            let filter = PickFilter(media: media?.rawValue, limit: limit, album: album?.value)
            // The browser is given this file, not the address: a command line is any user's to read.
            let door = try PickerDoor.create(environment: ProcessEnvironment.current)
            let session = PickSession(filter: filter) { outcome in
                DispatchQueue.main.async {
                    door.remove()
                    Self.finish(outcome, catalog: catalog, json: json)
                }
            }
            let token = try AccessToken.generate()
            let policy = try AccessPolicy(address: ListenAddress(ipv4: 0x7F00_0001, port: 0), token: token)
            let gallery = try Gallery(
                catalog: catalog, policy: policy,
                thumbnails: try StoreThumbnails(
                    layout: library.layout,
                    desktop: Configuration.desktopThumbnailCache(context.configuration), log: context.log),
                picker: session, log: context.log)
            let address = try gallery.start() + "/pick?token=" + token
            try door.lead(to: address)
            let signals = exitOnTermination(status: 1) { door.remove() }
            let browser = try BrowserLauncher.open(door.path.display)
            context.log.info("Pick in the browser (\(browser)): \(door.path.display)")
            withExtendedLifetime((library, gallery, signals)) { dispatchMain() }
        } catch {
            context.fail("\(error)")
            return 1
        }
    }

    /// Prints the choice and ends the process (and with it the private server).
    private static func finish(_ outcome: PickSession.Outcome, catalog: CatalogAccess, json: Bool) -> Never {
        guard case .picked(let ids) = outcome else { exit(1) }
        do {
            let layout = catalog.layout
            let objects = try catalog.read { catalog throws(CatalogError) -> [AssetJSON] in
                var objects: [AssetJSON] = []
                for id in ids {
                    if let asset = try catalog.asset(id: id) {
                        objects.append(try AssetJSON.load(asset, catalog: catalog, layout: layout))
                    }
                }
                return objects
            }
            if json {
                Output.json(objects)
            } else {
                for object in objects { print(object.path) }
            }
            fflush(nil)  // nil: every stream (stdout is not concurrency-safe to name)
            exit(0)
        } catch {
            Logger.standardError(verbose: false).error("\(error)")
            exit(1)
        }
    }
}

/// Opens an address in the user's browser: `xdg-open` (which honours `$BROWSER`),
/// else `$BROWSER` itself.
enum BrowserLauncher {
    /// What was started, for the log line.
    static func open(_ address: String) throws(SystemError) -> String {
        let path = ProcessEnvironment.current["PATH"] ?? "/usr/bin:/bin"
        let hasXDGOpen = path.split(separator: ":").contains { folder in
            Sys.isAccessible(BytePath(String(folder) + "/xdg-open"), mode: X_OK)
        }
        let command: [String]
        if hasXDGOpen {
            command = ["xdg-open", address]
        } else if let browser = ProcessEnvironment.current["BROWSER"]?.split(separator: ":").first {
            command = [String(browser), address]
        } else {
            return "no browser found: open the address yourself"
        }
        let child = try Sys.spawnDetached(command)
        // xdg-open returns once the browser is started; reap it then, so it leaves no zombie.
        DispatchQueue.global().async { Sys.waitForExit(child) }
        return command[0]
    }
}

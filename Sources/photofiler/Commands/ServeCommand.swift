import Dispatch
import Foundation
import PhotoFilerDaemon
import PhotoFilerFiling
import PhotoFilerServer

/// `photofiler serve`: the web gallery, in the foreground.
struct ServeCommand: Command {
    static let name = "serve"
    static let help = """
        usage: photofiler serve [--listen ADDR:PORT] [--token TOKEN] [--library DIR]
                                [--connections N] [--connections-per-address N] [--head-timeout SECONDS]
                                [--streams-per-address N] [--streams-per-share N]
        The web gallery of the library, until SIGTERM or SIGINT; prints its address on stdout.
        It listens on 127.0.0.1:8765 and [::1]:8765 unless told otherwise; ADDR is an IPv4 address, an
        IPv6 one in brackets ([::1]) or localhost (both). On any other address, and whenever --token is
        given, every request needs the token (one is made and printed when none is given).
        The limits (defaults 128, 16, 5, 8 and 16) keep room for the owner's browser: see photofiler(1).
        """

    let address: ListenAddress
    let token: String?
    let limits: HTTPLimits

    init(_ arguments: inout Arguments) throws(UsageError) {
        address = try arguments.listenAddress()
        token = try arguments.string("--token")
        limits = try arguments.galleryLimits()
        if let token, token.isEmpty || token.utf8.contains(where: { $0 <= 0x20 || $0 >= 0x7F || $0 == 0x3B })
        {
            throw UsageError("The option --token takes printable ASCII without spaces or ';'.")
        }
        let extra = try arguments.operands()
        if !extra.isEmpty { throw UsageError("'serve' takes no operands; see 'photofiler serve --help'.") }
    }

    func run(_ context: Context) -> Int32 {
        guard let library = context.openLibrary() else { return 1 }
        do {
            let policy = try AccessPolicy(address: address, token: token)
            let gallery = try Gallery(
                catalog: CatalogAccess(catalog: library.catalog, layout: library.layout), policy: policy,
                thumbnails: try StoreThumbnails(
                    layout: library.layout,
                    desktop: Configuration.desktopThumbnailCache(context.configuration), log: context.log),
                limits: limits, log: context.log)
            let base = try gallery.start()
            let signals = exitOnTermination(status: 0)
            printNow(base + "/" + (policy.token.map { "?token=" + Self.queryValue($0) } ?? ""))
            context.log.info("Serving the gallery of '\(library.layout.root.display)' at \(base)/.")
            withExtendedLifetime((library, gallery, signals)) { dispatchMain() }
        } catch {
            context.fail("\(error)")
            return 1
        }
    }

    /// A token as a query value: `+`, `&`, `#`, `%` and `=` (which `--token` allows)
    /// percent-encoded, so the printed link carries the token as given.
    static func queryValue(_ token: String) -> String {
        token.addingPercentEncoding(
            withAllowedCharacters: .urlQueryAllowed.subtracting(["+", "&", "#", "%", "="]))
            ?? token
    }
}

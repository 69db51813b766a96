import CGExiv2
import PhotoFilerMediaTypes
import PhotoFilerSystem
import Synchronization

/// Where the C libraries' own messages go (exiv2's "Directory Canon … considered
/// invalid", libvips' warnings): never to stderr, where they would interleave with
/// the product's log lines, but to a sink the daemon points at its log (debug level).
public enum MediaLibraryLog {
    /// The closure in a struct: a bare function value in the Mutex's generic storage
    /// was wrapped in two more reabstraction thunks by every `withLock` that read it,
    /// so each message cost more than the last and a helper that had passed on tens of
    /// thousands recursed 26,000 frames deep (found by make sanitize's fuzz run).
    private struct Sink: Sendable {
        let deliver: @Sendable (String) -> Void
    }

    private static let sink = Mutex<Sink?>(nil)

    /// Sets where library messages go; nil (the default) drops them.
    public static func setSink(_ newSink: (@Sendable (String) -> Void)?) {
        sink.withLock { $0 = newSink.map(Sink.init(deliver:)) }
    }

    package static func emit(_ message: String) {
        let current = sink.withLock { $0 }
        guard let current else { return }
        var text = Substring(message)
        while text.last?.isNewline == true { text = text.dropLast() }
        current.deliver(String(text))
    }
}

/// Process-wide start-up of exiv2 (through gexiv2): it wants one initialisation
/// per process, so it happens once, on first use, thread-safely (a global `let` is
/// initialised under `swift_once`). The decoders have their own
/// (`PhotoFilerDecoders.LibraryDecoders`), which runs this one first.
package enum MediaLibraries {
    package static func start() throws(MediaError) {
        if let failure = startup { throw failure }
    }
}

private let startup: MediaError? = {
    gexiv2_log_set_handler { level, message in
        let text = message.map { String(cString: $0) } ?? ""
        let name =
            level == GEXIV2_LOG_LEVEL_ERROR ? "error" : level == GEXIV2_LOG_LEVEL_WARN ? "warning" : "info"
        MediaLibraryLog.emit("exiv2 \(name): \(text)")
    }
    MediaLibraryLog.forwardGLib(domain: "GExiv2")
    // exiv2's start-up too (BMFF on, the XMP parser's lock), for ExifMetadata's own
    // exiv2 reader as much as for gexiv2: both use the one libexiv2 of the process.
    guard gexiv2_initialize() != 0 else {
        return .libraryUnavailable(name: "gexiv2", reason: "gexiv2_initialize failed")
    }
    // Motion photos' XMP names: registered once, before any file is read (exiv2's
    // namespace table is process-wide and unlocked; ExifMetadata's reader sees them).
    for (prefix, uri) in MotionPhoto.namespaces {
        var error: UnsafeMutablePointer<GError>?
        if gexiv2_metadata_try_register_xmp_namespace(uri, prefix, &error) == 0, let error {
            g_error_free(error)
        }
    }
    return nil
}()

extension MediaLibraryLog {
    /// Routes one GLib log domain's notable messages (gexiv2's, libvips') to the sink,
    /// per domain rather than through the default handler, so the rest of the
    /// process keeps its own GLib logging.
    package static func forwardGLib(domain: String) {
        let forward: GLogFunc = { domain, _, message, _ in
            let name = domain.map { String(cString: $0) } ?? "glib"
            let text = message.map { String(cString: $0) } ?? ""
            MediaLibraryLog.emit("\(name): \(text)")
        }
        _ = g_log_set_handler(domain, photofiler_g_log_notable_levels(), forward, nil)
    }
}

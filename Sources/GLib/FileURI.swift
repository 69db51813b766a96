import CGLib
import PhotoFilerSystem

/// A file's `file://` URI exactly as GLib's `g_filename_to_uri` writes it: the
/// freedesktop thumbnail cache names each thumbnail by the MD5 of this text, and
/// GNOME Files, Thunar and Dolphin (through GLib or the same rules) look it up so.
package enum FileURI {
    /// The URI of an absolute path (its bytes percent-encoded where GLib does); nil
    /// for a relative one.
    package static func of(_ absolute: BytePath) -> String? {
        guard absolute.isAbsolute else { return nil }
        guard let uri = absolute.withCString({ g_filename_to_uri($0, nil, nil) }) else { return nil }
        defer { g_free(uri) }
        return String(cString: uri)
    }
}

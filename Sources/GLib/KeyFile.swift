import CGLib
import PhotoFilerSystem

/// The parsed content of a freedesktop key file, copied out of GLib at once.
///
/// GLib's `GKeyFile` does the parsing so that the product accepts exactly the
/// syntax photofiler.conf(5) promises (and that desktop users know from `.desktop` files);
/// this type only owns the C object for the length of one parse and hands back
/// plain Swift values, so no GLib pointer ever escapes.
package struct KeyFile {
    /// One key of a group, in file order, with GLib's unescaped string when it has one.
    package struct Entry {
        package var key: String
        /// The value as written after `=` (GLib's `get_value`): bytes, no escapes resolved.
        package var raw: [UInt8]
        /// GLib's `get_string` result (escapes like `\s` resolved), or its complaint.
        package var string: Result<[UInt8], KeyFileMessage>
    }

    package struct Group {
        package var name: [UInt8]
        package var entries: [Entry]
    }

    /// A message of GLib's, kept as text.
    package struct KeyFileMessage: Error {
        package var text: String
        /// True for G_KEY_FILE_ERROR_UNKNOWN_ENCODING (a value that is not UTF-8).
        package var isEncoding: Bool
    }

    package var groups: [Group]

    /// Parses `data`; throws GLib's message when the file is not a key file.
    package init(data: [UInt8]) throws(KeyFileMessage) {
        guard let file = g_key_file_new() else {
            throw KeyFileMessage(text: "GLib could not allocate a key file", isEncoding: false)
        }
        defer { g_key_file_free(file) }
        var error: UnsafeMutablePointer<GError>? = nil
        let loaded = data.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                g_key_file_load_from_data(file, $0.baseAddress, gsize($0.count), G_KEY_FILE_NONE, &error)
            }
        }
        if loaded == 0 { throw Self.take(&error) }
        groups = Self.copyGroups(file)
    }

    /// True when `data` parses; used to find the line of a syntax error by
    /// loading growing prefixes of the file (GLib's messages quote the line but
    /// do not number it, and may be translated).
    package static func parses(_ data: ArraySlice<UInt8>) -> Bool {
        guard let file = g_key_file_new() else { return false }
        defer { g_key_file_free(file) }
        return data.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                g_key_file_load_from_data(file, $0.baseAddress, gsize($0.count), G_KEY_FILE_NONE, nil) != 0
            }
        }
    }

    private static func copyGroups(_ file: OpaquePointer) -> [Group] {
        var groupCount: gsize = 0
        guard let names = g_key_file_get_groups(file, &groupCount) else { return [] }
        defer { g_strfreev(names) }
        var groups: [Group] = []
        for index in 0..<Int(groupCount) {
            guard let name = names[index] else { continue }
            groups.append(Group(name: bytes(name), entries: copyEntries(file, group: name)))
        }
        return groups
    }

    private static func copyEntries(_ file: OpaquePointer, group: UnsafeMutablePointer<gchar>) -> [Entry] {
        var keyCount: gsize = 0
        guard let keys = g_key_file_get_keys(file, group, &keyCount, nil) else { return [] }
        defer { g_strfreev(keys) }
        var entries: [Entry] = []
        var seen: Set<String> = []
        for index in 0..<Int(keyCount) {
            guard let key = keys[index] else { continue }
            let name = String(decoding: bytes(key), as: UTF8.self)
            // A key written twice is listed twice by GLib; its value is the last one.
            guard seen.insert(name).inserted else { continue }
            var raw: [UInt8] = []
            if let value = g_key_file_get_value(file, group, key, nil) {
                raw = bytes(value)
                g_free(value)
            }
            var error: UnsafeMutablePointer<GError>? = nil
            let string: Result<[UInt8], KeyFileMessage>
            let value = g_key_file_get_string(file, group, key, &error)
            // GLib may return a half-unescaped value *and* an error (for `\q`):
            // the error decides.
            if error == nil, let value {
                string = .success(bytes(value))
            } else {
                string = .failure(take(&error))
            }
            g_free(value)
            entries.append(Entry(key: name, raw: raw, string: string))
        }
        return entries
    }

    /// Copies and frees a GError.
    private static func take(_ error: inout UnsafeMutablePointer<GError>?) -> KeyFileMessage {
        guard let pointer = error else {
            return KeyFileMessage(text: "GLib gave no reason", isEncoding: false)
        }
        defer {
            g_error_free(pointer)
            error = nil
        }
        let text = pointer.pointee.message.map { String(cString: $0) } ?? "GLib gave no reason"
        let isEncoding =
            pointer.pointee.domain == g_key_file_error_quark()
            && pointer.pointee.code == Int32(G_KEY_FILE_ERROR_UNKNOWN_ENCODING.rawValue)
        return KeyFileMessage(text: text, isEncoding: isEncoding)
    }

    private static func bytes(_ pointer: UnsafePointer<gchar>) -> [UInt8] {
        BytePath(cString: pointer).bytes
    }

    private static func bytes(_ pointer: UnsafeMutablePointer<gchar>) -> [UInt8] {
        BytePath(cString: pointer).bytes
    }
}

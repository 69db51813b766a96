import Glibc
import PhotoFilerSystem

/// The freedesktop base and user folders the product's defaults live in.
package enum XDGDirectories {
    /// `$XDG_CONFIG_HOME` when absolute (the spec says to ignore a relative
    /// one), else `~/.config`.
    package static func configHome(environment: [String: String]) -> BytePath {
        if let value = environment["XDG_CONFIG_HOME"], value.hasPrefix("/") { return BytePath(value) }
        return PathExpansion.home(environment: environment).appending(".config")
    }

    /// The user's pictures folder: `$XDG_PICTURES_DIR`, else the line
    /// `XDG_PICTURES_DIR="$HOME/…"` of `user-dirs.dirs` (what `xdg-user-dirs`
    /// writes, and what a localised desktop changes to `~/Bilder` or `~/图片`),
    /// else `~/Pictures`. A `user-dirs.dirs` that is there but cannot be read throws:
    /// guessing `~/Pictures` then would file into a library the user never chose.
    package static func pictures(environment: [String: String]) throws(SystemError) -> BytePath {
        let home = PathExpansion.home(environment: environment)
        if let value = environment["XDG_PICTURES_DIR"], !value.isEmpty {
            return PathExpansion.absolute(BytePath(value), base: home, environment: environment)
        }
        let file = configHome(environment: environment).appending("user-dirs.dirs")
        let data: [UInt8]
        do {
            data = try readSmallFile(file)
        } catch  where error.errno == .noSuchFile || error.errno.rawValue == ENOTDIR {
            return home.appending("Pictures")  // no such file: xdg-user-dirs never ran
        }
        if let value = userDirsValue(data, key: "XDG_PICTURES_DIR") { return expandHome(value, home: home) }
        return home.appending("Pictures")
    }

    /// The value of `KEY="…"` in a `user-dirs.dirs` file: shell syntax, but only
    /// the form its own tools write (double quotes, `$HOME` at the start).
    package static func userDirsValue(_ data: [UInt8], key: String) -> [UInt8]? {
        let prefix = Array(key.utf8) + [UInt8(ascii: "=")]
        var found: [UInt8]? = nil
        for line in data.split(separator: UInt8(ascii: "\n")) {
            let text = KeyFileLines.trimmed(line)
            guard text.first != UInt8(ascii: "#"), text.starts(with: prefix) else { continue }
            var value = Array(text.dropFirst(prefix.count))
            if value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"") {
                value = Array(value.dropFirst().dropLast())
            }
            // Backslash escapes: \" and \\ are the ones xdg-user-dirs writes.
            var unescaped: [UInt8] = []
            var escaping = false
            for byte in value {
                if !escaping, byte == UInt8(ascii: "\\") {
                    escaping = true
                    continue
                }
                escaping = false
                unescaped.append(byte)
            }
            if !unescaped.isEmpty { found = unescaped }
        }
        return found
    }

    private static func expandHome(_ value: [UInt8], home: BytePath) -> BytePath {
        for variable in ["$HOME", "${HOME}"] {
            let name = Array(variable.utf8)
            if value == name { return home }
            if value.starts(with: name + [UInt8(ascii: "/")]) {
                return PathExpansion.normalized(
                    home.appending(BytePath(bytes: value.dropFirst(name.count + 1))))
            }
        }
        let path = BytePath(bytes: value)
        return PathExpansion.normalized(path.isAbsolute ? path : home.appending(path))
    }

    private static func readSmallFile(_ path: BytePath) throws(SystemError) -> [UInt8] {
        let fd = try Sys.open(path, flags: O_RDONLY | O_CLOEXEC | O_NOCTTY)
        defer { fd.close() }
        return try fd.readToEnd(limit: 65536)
    }
}

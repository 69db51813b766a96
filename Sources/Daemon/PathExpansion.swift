import Glibc
import PhotoFilerSystem

/// Turns the paths people write (`~/Pictures`, `inboxes/QQ`, `/a//b/`) into the
/// absolute, tidy paths the daemon compares and watches.
///
/// Everything takes the environment as a dictionary so that tests (and the CLI)
/// can say exactly which `$HOME` they mean.
package enum PathExpansion {
    /// `$HOME`, else the password database's home folder, else `/`.
    package static func home(environment: [String: String]) -> BytePath {
        if let home = environment["HOME"], !home.isEmpty { return BytePath(home) }
        var record = passwd()
        var result: UnsafeMutablePointer<passwd>? = nil
        var buffer = [CChar](repeating: 0, count: 4096)
        if getpwuid_r(getuid(), &record, &buffer, buffer.count, &result) == 0, let entry = result,
            let directory = entry.pointee.pw_dir
        {
            return BytePath(cString: directory)
        }
        return BytePath("/")
    }

    /// Expands `~` and `~/…` to `$HOME` (other `~user` forms are left alone, as
    /// photofiler.conf(5) only promises these two).
    package static func expandTilde(_ path: BytePath, environment: [String: String]) -> BytePath {
        let tilde = UInt8(ascii: "~")
        let slash = UInt8(ascii: "/")
        guard path.bytes.first == tilde else { return path }
        if path.bytes.count == 1 { return home(environment: environment) }
        guard path.bytes[1] == slash else { return path }
        return home(environment: environment).appending(BytePath(bytes: path.bytes.dropFirst(2)))
    }

    /// Expands `~`, then makes a relative path absolute against `base`, then
    /// tidies it. `..` is kept: resolving it lexically would be wrong across
    /// symbolic links.
    package static func absolute(_ path: BytePath, base: BytePath, environment: [String: String]) -> BytePath
    {
        let expanded = expandTilde(path, environment: environment)
        return normalized(expanded.isAbsolute ? expanded : base.appending(expanded))
    }

    /// Drops empty and `.` components and a trailing `/`, so that two spellings
    /// of one folder compare equal.
    package static func normalized(_ path: BytePath) -> BytePath {
        let parts = path.components.filter { $0.bytes != [UInt8(ascii: ".")] }
        var bytes: [UInt8] = path.isAbsolute ? [UInt8(ascii: "/")] : []
        for (index, part) in parts.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: "/")) }
            bytes.append(contentsOf: part.bytes)
        }
        if bytes.isEmpty { bytes = [UInt8(ascii: ".")] }
        return BytePath(bytes: bytes)
    }
}

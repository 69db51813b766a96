import Glibc

extension Sys {
    /// The process's working directory, as bytes (`getcwd(3)`): a relative path
    /// given on the command line is made absolute against it, so a folder whose
    /// name is not UTF-8 must not pass through a String (Foundation's
    /// `currentDirectoryPath` replaces such bytes with U+FFFD).
    ///
    /// A working directory that was removed has no path (ENOENT): nothing relative
    /// to it can be found, and `/` is where the messages about it then point.
    public static func currentDirectory() -> BytePath {
        var size = Int(PATH_MAX) + 1
        while true {
            var buffer = [CChar](repeating: 0, count: size)
            if getcwd(&buffer, buffer.count) != nil {
                return buffer.withUnsafeBufferPointer { BytePath(cString: $0.baseAddress!) }
            }
            switch Errno.current {
            case .interrupted: continue
            case Errno(rawValue: ERANGE): size *= 2
            default: return BytePath("/")
            }
        }
    }
}

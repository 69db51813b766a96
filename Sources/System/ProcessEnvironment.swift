import Glibc

/// The process's environment as a dictionary, read from `environ` so that the
/// core does not need Foundation's `ProcessInfo` for it. The configuration
/// types take the dictionary as a parameter and use this only as the default,
/// which keeps them testable with a fake environment.
public enum ProcessEnvironment {
    public static var current: [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(decoding: BytePath(cString: pointer).bytes, as: UTF8.self)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }

    /// Sets `name` to `value`. Only for a process that has started no thread yet:
    /// `setenv` may move the table another thread's `getenv` is reading.
    public static func setBeforeThreads(_ name: String, _ value: String) {
        _ = setenv(name, value, 1)
    }
}

import PhotoFilerSystem

/// Where a setting was written: a line of the config file or a command-line
/// option. Every configuration message starts from it, so the reader knows
/// what to edit.
public enum ConfigurationSource: Hashable, Sendable, CustomStringConvertible {
    /// A 1-based line of a config file.
    case file(BytePath, line: Int)
    /// A command-line option as given, such as `--inbox QQ=~/Downloads/QQ`.
    case option(String)

    public var description: String {
        switch self {
        case .file(let path, let line): return "line \(line) of the config file '\(path.display)'"
        case .option(let text): return "the option '\(text)'"
        }
    }

    public var file: BytePath? {
        if case .file(let path, _) = self { return path }
        return nil
    }

    public var line: Int? {
        if case .file(_, let line) = self { return line }
        return nil
    }
}

import PhotoFilerFiling
import PhotoFilerSystem

/// A configuration the product refuses before doing any work (the CLI exits 2).
///
/// Each case carries where the bad setting was written; `description` is one
/// sentence naming that place and the fix, ready to print as it is.
public enum ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The config file could not be read at all.
    case unreadable(file: BytePath, SystemError)
    /// GLib's key-file parser refused a line; `message` is GLib's own reason.
    case syntax(at: ConfigurationSource, line: String, message: String)
    case unknownGroup(at: ConfigurationSource, group: String)
    case unknownKey(at: ConfigurationSource, group: String, key: String)
    /// `expected` says what would be accepted, in words ("hard or symbolic").
    case badValue(at: ConfigurationSource, key: String, value: String, expected: String)
    case badAlbumName(at: ConfigurationSource, problem: AlbumName.Problem)
    /// A group or key name that is not UTF-8, so cannot be an album name or a key.
    case notUTF8(at: ConfigurationSource, what: String)
    case inboxWithoutPath(at: ConfigurationSource, name: String)
    /// One folder given to two inboxes of different names.
    case duplicateInbox(at: ConfigurationSource, path: BytePath, name: String, existing: String)
    case badInboxOption(at: ConfigurationSource, reason: InboxOptionProblem)
    /// A group written a second time: GLib merges the two and keeps the last value of
    /// each key, so one of two `[inbox NAME]` folders would be dropped in silence.
    case repeatedGroup(at: ConfigurationSource, group: String, firstLine: Int)

    /// What is wrong with an `--inbox NAME=DIR` value beyond its album name.
    public enum InboxOptionProblem: Hashable, Sendable {
        case missingEquals
        case missingFolder
    }

    /// Where the bad setting is; nil only for an unreadable file.
    public var source: ConfigurationSource? {
        switch self {
        case .unreadable: return nil
        case .syntax(let at, _, _), .unknownGroup(let at, _), .unknownKey(let at, _, _),
            .badValue(let at, _, _, _), .badAlbumName(let at, _), .notUTF8(let at, _),
            .inboxWithoutPath(let at, _), .duplicateInbox(let at, _, _, _), .badInboxOption(let at, _),
            .repeatedGroup(let at, _, _):
            return at
        }
    }

    /// The config file named in the message, if the problem is in one.
    public var file: BytePath? {
        if case .unreadable(let file, _) = self { return file }
        return source?.file
    }

    /// The 1-based line of the config file, if the problem is on one.
    public var line: Int? { source?.line }

    public var description: String {
        switch self {
        case .unreadable(let file, let error):
            return "Cannot read the config file '\(file.display)' (\(error.errno.message)); "
                + "check the path given to --config and that the file is readable."
        case .syntax(let at, _, let message):
            return "\(at.capitalized) cannot be read (\(Self.trimmedPeriod(message))); "
                + "write it as 'key = value' below a [library] or [inbox NAME] header, "
                + "or start it with # to make it a comment."
        case .unknownGroup(let at, let group):
            return "\(at.capitalized) starts an unknown group [\(group)]; "
                + "the groups are [library] and [inbox NAME]."
        case .unknownKey(let at, let group, let key):
            let known =
                group == "library"
                ? "path, link, settle, rescan and desktop-thumbnails" : "path, album, keep and link"
            return "\(at.capitalized) has an unknown key '\(key)' in [\(group)]; the keys there are \(known)."
        case .badValue(let at, let key, let value, let expected):
            return "\(at.capitalized) sets \(key) to '\(value)'; write \(expected)."
        case .badAlbumName(let at, let problem):
            return "In \(at), \(Self.lowercasedFirst(problem.description))"
        case .notUTF8(let at, let what):
            return "\(at.capitalized) has \(what) that is not valid UTF-8; save the file as UTF-8."
        case .inboxWithoutPath(let at, let name):
            return "\(at.capitalized) starts [inbox \(name)] without a path; "
                + "add a line 'path = FOLDER' below it, naming the folder to watch."
        case .duplicateInbox(let at, let path, let name, let existing):
            return "\(at.capitalized) gives the folder '\(path.display)' to the inbox '\(name)', "
                + "but it is already the inbox '\(existing)'; give each folder to one inbox only."
        case .repeatedGroup(let at, let group, let firstLine):
            let twoFolders =
                group.hasPrefix("inbox ")
                ? " (a second folder for one album gets a group of its own, with 'album = \(group.dropFirst(6))')"
                : ""
            return
                "\(at.capitalized) starts [\(group)] again, after line \(firstLine), and only one of the two would count; "
                + "write each group once\(twoFolders)."
        case .badInboxOption(let at, .missingEquals):
            return "\(at.capitalized) has no '='; write --inbox NAME=FOLDER, as in --inbox QQ=~/Downloads/QQ."
        case .badInboxOption(let at, .missingFolder):
            return "\(at.capitalized) names no folder after '='; write --inbox NAME=FOLDER, "
                + "as in --inbox QQ=~/Downloads/QQ."
        }
    }

    private static func lowercasedFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.lowercased() + text.dropFirst()
    }

    private static func trimmedPeriod(_ text: String) -> String {
        text.hasSuffix(".") ? String(text.dropLast()) : text
    }
}

extension ConfigurationSource {
    /// The description with a capital first letter, to open a sentence.
    fileprivate var capitalized: String {
        let text = description
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }
}

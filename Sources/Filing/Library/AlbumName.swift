import Foundation
import PhotoFilerSystem

/// An album's name: one safe path component, compared exactly after Unicode NFC.
public struct AlbumName: Hashable, Sendable, CustomStringConvertible {
    /// The NFC form: the album's identity as text and its folder's name under `Albums/`.
    public let value: String

    /// Why a name cannot be an album's.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case empty
        case dotOrDotDot(String)
        case containsSlash(String)
        case containsNUL(String)
        case tooLong(String)
        /// The name's bytes are not UTF-8 (shown here with U+FFFD for each bad sequence).
        case notUTF8(String)

        public var description: String {
            switch self {
            case .empty:
                return "An album name is empty; give the inbox a name, as in --inbox QQ=~/Downloads/QQ."
            case .dotOrDotDot(let name):
                return "The album name '\(name)' is not allowed; choose a name other than '.' or '..'."
            case .containsSlash(let name):
                return "The album name '\(name)' contains '/'; an album name is one folder name, without '/'."
            case .containsNUL(let name):
                return
                    "The album name '\(name.replacingOccurrences(of: "\0", with: "\\0"))' contains a NUL byte; remove it."
            case .tooLong(let name):
                return "The album name '\(name.prefix(40))…' is longer than 255 bytes; choose a shorter one."
            case .notUTF8(let name):
                return
                    "The album name '\(name)' is not valid UTF-8 (U+FFFD marks the bad bytes); give the album a name in UTF-8."
            }
        }
    }

    /// A name as bytes (argv): refused when they are not UTF-8, else as `init(validating:)`.
    public init(validatingBytes bytes: some Collection<UInt8>) throws(Problem) {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .notUTF8(String(decoding: bytes, as: UTF8.self))
        }
        try self.init(validating: text)
    }

    public init(validating raw: String) throws(Problem) {
        let normalized = raw.precomposedStringWithCanonicalMapping
        if normalized.isEmpty { throw .empty }
        if normalized == "." || normalized == ".." { throw .dotOrDotDot(normalized) }
        if normalized.contains("/") { throw .containsSlash(normalized) }
        if normalized.utf8.contains(0) { throw .containsNUL(normalized) }
        if normalized.utf8.count > 255 { throw .tooLong(normalized) }
        value = normalized
    }

    /// The album's folder name under `Albums/`.
    public var folderName: BytePath { BytePath(value) }

    public var description: String { value }
}

/// How an album entry refers to its roll file.
public enum LinkKind: String, Sendable, CaseIterable {
    /// A second name for the same inode: survives the Roll being moved, costs no space.
    case hard
    /// A relative symbolic link: works across file systems and shows where the file lives.
    case symbolic
}

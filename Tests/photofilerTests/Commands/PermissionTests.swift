import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// A library the user may not write: a clear error naming it, exit 1, nothing done.
///
/// Root bypasses file permissions, so as root the binary runs as `nobody` through
/// `setpriv`; without setpriv the check cannot work as root and is skipped.
@Suite
struct PermissionTests {
    static let setpriv = "/usr/bin/setpriv"
    static let nobody: uid_t = 65534
    static var isRoot: Bool { geteuid() == 0 }
    static var canCheck: Bool { !isRoot || access(setpriv, X_OK) == 0 }
    static let skipReason: Comment =
        "running as root without setpriv: root bypasses the permissions under test"

    /// How the binary is started: as `nobody` when the tests run as root.
    static var launcher: [BytePath] {
        guard isRoot else { return [] }
        return [setpriv, "--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups"].map { BytePath($0) }
    }

    /// Makes `path` and everything below belong to the user the binary runs as, with
    /// folders at `folderMode`.
    static func prepare(_ path: BytePath, folderMode: mode_t) throws {
        let status = try Sys.status(path)
        if isRoot { _ = path.withCString { lchown($0, nobody, gid_t(nobody)) } }
        if status.isDirectory {
            for entry in try Sys.listDirectory(path) {
                try prepare(path.appending(entry.name), folderMode: folderMode)
            }
            _ = path.withCString { chmod($0, folderMode) }
        } else if status.isRegularFile {
            _ = path.withCString { chmod($0, 0o644) }
        }
    }

    /// A test folder the unprivileged binary can reach (`TemporaryFolder` makes it 700).
    static func reachableFolder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        _ = folder.path.withCString { chmod($0, 0o755) }
        return folder
    }

    /// Saves a picture of its own into the album QQ of `library`, as the tests' own
    /// user (before the library is handed to the unprivileged one).
    static func saveIntoQQ(
        _ index: Int, tag: String, as name: String, in folder: TemporaryFolder, library: BytePath,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let input = folder.file(name)
        try writeFile(input, Pictures.uniqueJPEG(index, tag: tag))
        let saved = try Binary.run(
            ["save", "--album", "QQ", "--library", library.display, input.display].map { BytePath($0) })
        try #require(saved.status == 0, "\(saved.stderr)", sourceLocation: sourceLocation)
    }

    /// A test folder the unprivileged binary can reach, with one picture to save.
    func setUp() throws -> (TemporaryFolder, input: BytePath) {
        let folder = try Self.reachableFolder()
        let input = folder.file("throbber.gif")
        try copyFile(Fixtures.corpus("throbber.gif"), to: input)
        _ = input.withCString { chmod($0, 0o644) }
        return (folder, input)
    }

    /// `save` of `input` into the album QQ of a new, empty library folder at
    /// `folderMode`, run as the user who owns that folder.
    func saveIntoNewLibrary(_ input: BytePath, in folder: TemporaryFolder, folderMode: mode_t) throws -> (
        library: BytePath, result: Binary.Result
    ) {
        let library = folder.file("library")
        try Sys.makeDirectory(library)
        try Self.prepare(library, folderMode: folderMode)
        let result = try Binary.run(
            ["save", "--album", "QQ", "--library", library.display, input.display].map { BytePath($0) },
            launcher: Self.launcher)
        return (library, result)
    }

    func expectRefused(
        _ result: Binary.Result, library: BytePath, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == 1, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(
            result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)",
            sourceLocation: sourceLocation)
        #expect(
            result.stderr.contains(library.display), "names the library: \(result.stderr)",
            sourceLocation: sourceLocation)
        #expect(
            result.stderr.contains("permission"), "says what to fix: \(result.stderr)",
            sourceLocation: sourceLocation)
        #expect(!result.stderr.contains("Error Domain="), sourceLocation: sourceLocation)
    }

    /// A file of another owner is read too: the kernel refuses `O_NOATIME` for it
    /// (EPERM), and photofiler opens it without the flag.
    @Test(.enabled(if: canCheck, skipReason))
    func aFileOfAnotherOwnerIsSaved() throws {
        let (folder, input) = try setUp()
        let (library, result) = try saveIntoNewLibrary(input, in: folder, folderMode: 0o755)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try TestLibrary.files(under: library.appending("Roll")).count == 1)
        #expect(try TestLibrary.files(under: library.appending("Albums/QQ")).count == 1)
    }

    @Test(.enabled(if: canCheck, skipReason))
    func readOnlyEmptyLibraryFolder() throws {
        let (folder, input) = try setUp()
        let before = try readFile(input)
        let (library, result) = try saveIntoNewLibrary(input, in: folder, folderMode: 0o555)
        defer { _ = library.withCString { chmod($0, 0o755) } }
        expectRefused(result, library: library)
        #expect(try Sys.listDirectory(library).isEmpty, "nothing created")
        #expect(try readFile(input) == before)
    }

    @Test(.enabled(if: canCheck, skipReason))
    func readOnlyExistingLibrary() throws {
        let (folder, input) = try setUp()
        let library = folder.file("library")
        let first = try Binary.run(
            [
                "save", "--album", "QQ", "--library", library.display,
                Fixtures.corpus("DNG.dng").display,
            ].map {
                BytePath($0)
            })
        try #require(first.status == 0, "\(first.stderr)")
        try Self.prepare(library, folderMode: 0o555)
        defer { try? Self.prepare(library, folderMode: 0o755) }
        let result = try Binary.run(
            ["save", "--album", "QQ", "--move", "--library", library.display, input.display].map {
                BytePath($0)
            },
            launcher: Self.launcher)
        expectRefused(result, library: library)
        #expect(
            try TestLibrary.files(under: library.appending("Roll")).count == 1, "nothing added to the Roll")
        #expect((try? Sys.status(input)) != nil, "the source stays")
    }
}

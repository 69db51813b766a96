import Foundation
import Glibc
import PhotoFilerSystem
import TestSupport
import Testing

/// `rm` whose files the folders' permissions keep: refused before anything
/// changes, so the catalog never says a file went that stayed, and `restore` never
/// files the same bytes a second time. Root removes anything, so as root the
/// binary runs as `nobody` (`setpriv`), as the permission tests do.
@Suite(.enabled(if: PermissionTests.canCheck, PermissionTests.skipReason))
struct RemovalRefusedTests {
    /// A library of one asset in album QQ, owned by the user the binary runs as;
    /// `locked` is made read-only (0555) after.
    private func library(locking locked: (_ library: BytePath, _ rollFile: BytePath) -> BytePath) throws -> (
        TemporaryFolder, library: BytePath, rollFile: BytePath, folder: BytePath
    ) {
        let folder = try PermissionTests.reachableFolder()
        let library = folder.file("library")
        try PermissionTests.saveIntoQQ(1, tag: "rm refused", as: "IMG_0001.jpg", in: folder, library: library)
        let info = try Binary.run(["info", "1", "--json", "--library", library.display].map { BytePath($0) })
        let rollFile = BytePath(try #require((try info.json() as? [String: Any])?["path"] as? String))
        try PermissionTests.prepare(library, folderMode: 0o755)
        let readOnly = locked(library, rollFile)
        _ = readOnly.withCString { chmod($0, 0o555) }
        return (folder, library, rollFile, readOnly)
    }

    private func run(_ arguments: [String], library: BytePath) throws -> Binary.Result {
        try Binary.run(
            (arguments + ["--library", library.display]).map { BytePath($0) },
            launcher: PermissionTests.launcher)
    }

    @Test func rmOfAnAssetWhoseRollFolderIsReadOnlyChangesNothing() throws {
        let (folder, library, rollFile, locked) = try library { _, rollFile in rollFile.parent }
        // The folder is removed once the test ends, its lock lifted first.
        defer { withExtendedLifetime(folder) { _ = locked.withCString { chmod($0, 0o755) } } }
        let result = try run(["rm", "1"], library: library)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr.split(separator: "\n").count == 1 && result.stderr.contains(locked.display)
                && result.stderr.contains("read and write access to the folders of the library"),
            "\(result.stderr)")
        #expect(try Sys.statusIfExists(rollFile) != nil)
        let info = try #require(try run(["info", "1", "--json"], library: library).json() as? [String: Any])
        #expect(info["albums"] as? [String] == ["QQ"], "still in its album: \(info)")
        #expect(
            try TestLibrary.files(under: library.appending("Recently Deleted")).isEmpty,
            "nothing in Recently Deleted")
        let check = try run(["check"], library: library)
        #expect(check.status == 0, "catalog and disk agree: \(check.stdout)\(check.stderr)")
    }

    @Test func rmFromAnAlbumWhoseFolderIsReadOnlyChangesNothing() throws {
        let (folder, library, _, locked) = try library { library, _ in
            library.appending("Albums").appending("QQ")
        }
        // The folder is removed once the test ends, its lock lifted first.
        defer { withExtendedLifetime(folder) { _ = locked.withCString { chmod($0, 0o755) } } }
        try #require(try Sys.status(locked).isDirectory)
        let result = try run(["rm", "1", "--album", "QQ"], library: library)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains(locked.display), "\(result.stderr)")
        let listed = try #require(
            try run(["list", "--album", "QQ", "--json"], library: library).json() as? [Any])
        #expect(listed.count == 1, "the membership stands")
        let check = try run(["check"], library: library)
        #expect(check.status == 0, "catalog and disk agree: \(check.stdout)\(check.stderr)")
    }
}

import Foundation
import PhotoFilerSystem
import TestSupport
import Testing

/// A year of the Roll on a disk of its own: one photo filed (symbolic album links,
/// as hard links cannot reach another disk), then its year folder moved onto a tmpfs
/// mounted where it was, filled from a copy each time it is mounted. Needs root.
struct YearOnItsOwnDisk {
    static let arguments = ["--settle", "100", "--link", "symbolic"]
    let scene: DaemonScene
    let rollFile: BytePath
    let year: BytePath
    private let copy: BytePath

    /// Files `picture` with a daemon of its own, stopped afterwards, then moves its year.
    init(_ scene: DaemonScene, picture: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws {
        self.scene = scene
        let daemon = try scene.start(Self.arguments)
        try scene.dropByRename(picture, as: "IMG_1.jpg", into: scene.inbox())
        #expect(scene.waitForAlbum("QQ", count: 1), "\(daemon.log)", sourceLocation: sourceLocation)
        #expect(daemon.terminate() == 0, sourceLocation: sourceLocation)
        rollFile = BytePath(
            try #require(
                try listJSON(scene.library, []).first?["path"] as? String, sourceLocation: sourceLocation))
        year = rollFile.parent.parent
        copy = scene.folder.file("year")
        let moved = Machine.shell(
            "cp -a '\(year.display)' '\(copy.display)' && rm -r '\(year.display)' && mkdir '\(year.display)'")
        try #require(moved.status == 0, "\(moved.output)", sourceLocation: sourceLocation)
    }

    /// Mounts the disk and fills it with the year as it was.
    func mount(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let failure = Machine.mountTmpfs(year, size: "16m")
        try #require(failure == nil, "\(failure ?? "")", sourceLocation: sourceLocation)
        let filled = Machine.shell("cp -a '\(copy.display)/.' '\(year.display)/'")
        try #require(filled.status == 0, "\(filled.output)", sourceLocation: sourceLocation)
    }

    /// Unmounts it, tried until it is not busy (a daemon may be handing the roll file
    /// to a thumbnail helper).
    func unmount(sourceLocation: SourceLocation = #_sourceLocation) {
        var unmounted = (status: Int32(-1), output: "")
        #expect(
            waitUntil(timeout: 10) {
                unmounted = Machine.shell("umount '\(year.display)'")
                return unmounted.status == 0
            }, "\(unmounted.output)", sourceLocation: sourceLocation)
    }
}

import Glibc
import TestSupport
import Testing

@testable import PhotoFilerDaemon
@testable import PhotoFilerSystem

@Suite struct DaemonLockTests {
    @Test func secondLockOnTheSameLibraryNamesTheFirstPid() throws {
        let folder = try TemporaryFolder()
        let library = folder.path.appending("Library")
        let first = try DaemonLock(library: library, pid: 4242)
        #expect(first.path == library.appending(".photofiler/daemon.lock"))
        // flock locks belong to the open file description, so a second open in
        // this same process competes like another daemon would.
        #expect(throws: DaemonLockError.alreadyRunning(pid: 4242, library: library)) {
            _ = try DaemonLock(library: library, pid: 5555)
        }
        let message = DaemonLockError.alreadyRunning(pid: 4242, library: library).description
        #expect(message.contains("pid 4242"))
        #expect(message.contains("kill 4242"))
        #expect(message.contains(library.display))
        _ = first
    }

    @Test func lockIsFreeAgainAfterRelease() throws {
        let folder = try TemporaryFolder()
        do {
            let first = try DaemonLock(library: folder.path, pid: 111_111)
            _ = first
        }
        let second = try DaemonLock(library: folder.path, pid: 22)
        let fd = try Sys.openForReading(second.path)
        defer { fd.close() }
        #expect(String(decoding: try fd.readToEnd(), as: UTF8.self) == "22\n")
    }

    @Test func unwritableLibraryIsASystemError() throws {
        // Root may write anywhere; a file in the way of the folder fails for everyone.
        let folder = try TemporaryFolder()
        try folder.write("", to: folder.path.appending("file"))
        #expect(throws: DaemonLockError.self) {
            _ = try DaemonLock(library: folder.path.appending("file"))
        }
    }
}

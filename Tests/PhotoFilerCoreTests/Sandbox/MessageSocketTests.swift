import Glibc
import Testing

@testable import PhotoFilerSandbox
@testable import PhotoFilerSystem

/// The datagrams between the daemon and its helpers: what arrives is exactly what
/// was sent (the receive buffer is never zeroed, so a byte past the datagram must
/// never show), with its descriptor, and what breaks the rules is an error.
@Suite struct MessageSocketTests {
    @Test func aDatagramArrivesWhole() throws {
        let (left, right) = try Sys.messageSocketPair()
        defer {
            left.close()
            right.close()
        }
        for bytes in [[UInt8](repeating: 0xAB, count: 300), [1, 2, 3], Array(0..<255)] {
            try Sys.sendMessage(left, bytes)
            let received = try #require(try Sys.receiveMessage(right, limit: 1024))
            #expect(received.bytes == bytes)
            #expect(received.descriptors.isEmpty)
        }
    }

    @Test func aPassedDescriptorArrivesWithItsBytes() throws {
        let (left, right) = try Sys.messageSocketPair()
        defer {
            left.close()
            right.close()
        }
        let (passed, other) = try Sys.messageSocketPair()
        defer {
            passed.close()
            other.close()
        }
        try Sys.sendMessage(left, [7], passing: [passed])
        let received = try #require(try Sys.receiveMessage(right, limit: 16))
        defer { for descriptor in received.descriptors { descriptor.close() } }
        #expect(received.bytes == [7])
        #expect(received.descriptors.count == 1)
        let status = try received.descriptors[0].status()
        #expect(status.isSameFile(as: try passed.status()))
    }

    @Test func aDatagramOverTheLimitIsRefused() throws {
        let (left, right) = try Sys.messageSocketPair()
        defer {
            left.close()
            right.close()
        }
        try Sys.sendMessage(left, [UInt8](repeating: 1, count: 65))
        #expect(throws: SystemError.self) { try Sys.receiveMessage(right, limit: 64) }
        // The next one, within the limit, is read whole.
        try Sys.sendMessage(left, [UInt8](repeating: 2, count: 64))
        #expect(try Sys.receiveMessage(right, limit: 64)?.bytes == [UInt8](repeating: 2, count: 64))
    }

    /// A helper that crashed with requests unread had answered the ones before: the
    /// kernel's ECONNRESET comes first, and those answers are still read, so no
    /// answered file is blamed for the crash.
    @Test func answersSentBeforeAPeerDiedWithRequestsUnreadAreRead() throws {
        let (daemon, helper) = try Sys.messageSocketPair()
        defer { daemon.close() }
        try Sys.sendMessage(daemon, [1])
        try Sys.sendMessage(daemon, [2])
        try Sys.sendMessage(helper, [10])
        try Sys.sendMessage(helper, [20])
        helper.close()  // the two requests unread
        #expect(try Sys.receiveMessage(daemon, limit: 16)?.bytes == [10])
        #expect(try Sys.receiveMessage(daemon, limit: 16)?.bytes == [20])
        #expect(try Sys.receiveMessage(daemon, limit: 16) == nil)
    }

    @Test func aGonePeerIsNil() throws {
        let (left, right) = try Sys.messageSocketPair()
        left.close()
        defer { right.close() }
        #expect(try Sys.receiveMessage(right, limit: 64) == nil)
    }
}

import Glibc
import PhotoFilerMediaTypes
import PhotoFilerSystem

/// Datagrams over a `SOCK_SEQPACKET` socket pair, with a descriptor passed along
/// (`SCM_RIGHTS`): how the daemon hands a helper the one file it may read.
extension Sys {
    /// A connected pair, both ends close-on-exec.
    package static func messageSocketPair() throws(SystemError) -> (FileDescriptor, FileDescriptor) {
        var ends: [CInt] = [-1, -1]
        try check("socketpair", nil) {
            socketpair(AF_UNIX, CInt(SOCK_SEQPACKET.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0, &ends)
        }
        return (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
    }

    /// `fcntl(F_SETFL, O_NONBLOCK)`: the daemon's ends are read from a dispatch source.
    package static func setNonBlocking(_ fd: FileDescriptor) throws(SystemError) {
        let flags = try checkCount("fcntl", nil) { Int(fcntl(fd.rawValue, F_GETFL)) }
        try check("fcntl", nil) { fcntl(fd.rawValue, F_SETFL, CInt(flags) | O_NONBLOCK) }
    }

    /// The room a control message for one descriptor takes (`CMSG_SPACE(sizeof(int))`,
    /// a macro Swift cannot import): the header, then the int, padded to `size_t`.
    private static let controlSpace =
        MemoryLayout<cmsghdr>.size
        + ((MemoryLayout<CInt>.size + MemoryLayout<Int>.size - 1) & ~(MemoryLayout<Int>.size - 1))
    /// `CMSG_LEN(sizeof(int))`.
    private static let controlLength = MemoryLayout<cmsghdr>.size + MemoryLayout<CInt>.size

    /// `sendmsg`: one datagram, with `passing` as `SCM_RIGHTS` when given. Never raises
    /// SIGPIPE (a dead peer is `EPIPE`); `EAGAIN` when a non-blocking socket is full.
    package static func sendMessage(
        _ socket: FileDescriptor, _ bytes: [UInt8], passing descriptor: FileDescriptor? = nil
    ) throws(SystemError) {
        var control = [UInt8](repeating: 0, count: controlSpace)
        var bytes = bytes
        let sent = bytes.withUnsafeMutableBytes { payload in
            control.withUnsafeMutableBytes { controlBytes in
                var vector = iovec(iov_base: payload.baseAddress, iov_len: payload.count)
                return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                    var message = msghdr()
                    message.msg_iov = vectorPointer
                    message.msg_iovlen = 1
                    if let descriptor {
                        let header = controlBytes.baseAddress!.assumingMemoryBound(to: cmsghdr.self)
                        header.pointee.cmsg_len = controlLength
                        header.pointee.cmsg_level = SOL_SOCKET
                        header.pointee.cmsg_type = CInt(SCM_RIGHTS)
                        controlBytes.storeBytes(
                            of: descriptor.rawValue, toByteOffset: MemoryLayout<cmsghdr>.size, as: CInt.self)
                        message.msg_control = controlBytes.baseAddress
                        message.msg_controllen = controlSpace
                    }
                    return Result { () throws(SystemError) -> Int in
                        try checkCount("sendmsg", nil) {
                            sendmsg(socket.rawValue, &message, CInt(MSG_NOSIGNAL))
                        }
                    }
                }
            }
        }
        _ = try sent.get()
    }

    /// One received datagram and the descriptor it carried (close-on-exec), or nil when
    /// the peer is gone. A datagram longer than `limit`, or one with a cut control
    /// part, is `EMSGSIZE` (its descriptor, if any, is closed).
    package static func receiveMessage(_ socket: FileDescriptor, limit: Int) throws(SystemError)
        -> (bytes: [UInt8], descriptor: FileDescriptor?)?
    {
        var payload = [UInt8](repeating: 0, count: limit + 1)
        var control = [UInt8](repeating: 0, count: controlSpace)
        var flags: CInt = 0
        let received = payload.withUnsafeMutableBytes { payloadBytes in
            control.withUnsafeMutableBytes { controlBytes in
                var vector = iovec(iov_base: payloadBytes.baseAddress, iov_len: payloadBytes.count)
                return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                    var message = msghdr()
                    message.msg_iov = vectorPointer
                    message.msg_iovlen = 1
                    message.msg_control = controlBytes.baseAddress
                    message.msg_controllen = controlSpace
                    let result = Result { () throws(SystemError) -> Int in
                        try checkCount("recvmsg", nil) {
                            recvmsg(socket.rawValue, &message, CInt(MSG_CMSG_CLOEXEC))
                        }
                    }
                    flags = message.msg_flags
                    return result
                }
            }
        }
        let count = try received.get()
        var descriptor: FileDescriptor?
        control.withUnsafeBytes { controlBytes in
            let header = controlBytes.load(as: cmsghdr.self)
            if header.cmsg_len >= controlLength, header.cmsg_level == SOL_SOCKET,
                header.cmsg_type == CInt(SCM_RIGHTS)
            {
                descriptor = FileDescriptor(
                    rawValue: controlBytes.load(fromByteOffset: MemoryLayout<cmsghdr>.size, as: CInt.self))
            }
        }
        if count > limit || flags & CInt(MSG_CTRUNC) != 0 || flags & CInt(MSG_TRUNC) != 0 {
            descriptor?.close()
            throw SystemError(Errno(rawValue: EMSGSIZE), call: "recvmsg", path: nil)
        }
        if count == 0 && descriptor == nil { return nil }
        return (Array(payload[..<count]), descriptor)
    }
}

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

    /// A request carries at most this many descriptors (a thumbnail's file and its output).
    package static let mostPassedDescriptors = 2

    /// The room a control message for `count` descriptors takes (`CMSG_SPACE(count *
    /// sizeof(int))`, a macro Swift cannot import): the header, then the ints, padded to `size_t`.
    private static func controlSpace(_ count: Int) -> Int {
        MemoryLayout<cmsghdr>.size
            + ((count * MemoryLayout<CInt>.size + MemoryLayout<Int>.size - 1) & ~(MemoryLayout<Int>.size - 1))
    }
    /// `CMSG_LEN(count * sizeof(int))`.
    private static func controlLength(_ count: Int) -> Int {
        MemoryLayout<cmsghdr>.size + count * MemoryLayout<CInt>.size
    }

    /// `sendmsg`: one datagram, with `passing` (up to `mostPassedDescriptors`) as
    /// `SCM_RIGHTS`. Never raises SIGPIPE (a dead peer is `EPIPE`); `EAGAIN` when a
    /// non-blocking socket is full.
    package static func sendMessage(
        _ socket: FileDescriptor, _ bytes: [UInt8], passing descriptors: [FileDescriptor] = []
    ) throws(SystemError) {
        precondition(descriptors.count <= mostPassedDescriptors)
        var control = [UInt8](repeating: 0, count: controlSpace(descriptors.count))
        var bytes = bytes
        let sent = bytes.withUnsafeMutableBytes { payload in
            control.withUnsafeMutableBytes { controlBytes in
                var vector = iovec(iov_base: payload.baseAddress, iov_len: payload.count)
                return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                    var message = msghdr()
                    message.msg_iov = vectorPointer
                    message.msg_iovlen = 1
                    if !descriptors.isEmpty {
                        let header = controlBytes.baseAddress!.assumingMemoryBound(to: cmsghdr.self)
                        header.pointee.cmsg_len = controlLength(descriptors.count)
                        header.pointee.cmsg_level = SOL_SOCKET
                        header.pointee.cmsg_type = CInt(SCM_RIGHTS)
                        for (index, descriptor) in descriptors.enumerated() {
                            controlBytes.storeBytes(
                                of: descriptor.rawValue,
                                toByteOffset: MemoryLayout<cmsghdr>.size + index * MemoryLayout<CInt>.size,
                                as: CInt.self)
                        }
                        message.msg_control = controlBytes.baseAddress
                        message.msg_controllen = controlSpace(descriptors.count)
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

    /// One received datagram and the descriptors it carried (close-on-exec), or nil when
    /// the peer is gone and everything it sent was read. A datagram longer than `limit`, or one with a cut
    /// control part, is `EMSGSIZE` (its descriptors, if any, are closed).
    ///
    /// The datagram lands in the returned array's own storage, left uninitialised
    /// until `recvmsg` fills it: zeroing `limit` bytes first, then copying the
    /// received ones out, cost more than the call itself for every answer and
    /// every request (16 KiB each; callgrind of `save`).
    package static func receiveMessage(_ socket: FileDescriptor, limit: Int) throws(SystemError)
        -> (bytes: [UInt8], descriptors: [FileDescriptor])?
    {
        let space = controlSpace(mostPassedDescriptors)
        var control = [UInt8](repeating: 0, count: space)
        var flags: CInt = 0
        var received: Result<Int, SystemError> = .success(0)
        let payload = [UInt8](unsafeUninitializedCapacity: limit + 1) { payloadBytes, initialized in
            received = control.withUnsafeMutableBytes { controlBytes in
                var vector = iovec(iov_base: payloadBytes.baseAddress, iov_len: payloadBytes.count)
                return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                    var message = msghdr()
                    message.msg_iov = vectorPointer
                    message.msg_iovlen = 1
                    message.msg_control = controlBytes.baseAddress
                    message.msg_controllen = space
                    func receive() throws(SystemError) -> Int {
                        try checkCount("recvmsg", nil) {
                            recvmsg(socket.rawValue, &message, CInt(MSG_CMSG_CLOEXEC))
                        }
                    }
                    let result = Result { () throws(SystemError) -> Int in
                        do throws(SystemError) {
                            return try receive()
                        } catch  where error.errno.rawValue == ECONNRESET {
                            // The peer closed with datagrams of ours unread (a helper that
                            // crashed): Linux says so once, before the datagrams the peer had
                            // sent, which are still queued. Read on: they come, then the end.
                            return try receive()
                        }
                    }
                    flags = message.msg_flags
                    return result
                }
            }
            // Only what recvmsg wrote counts as initialised (none on failure).
            if case .success(let count) = received { initialized = min(count, payloadBytes.count) }
        }
        let count = try received.get()
        var descriptors: [FileDescriptor] = []
        control.withUnsafeBytes { controlBytes in
            let header = controlBytes.load(as: cmsghdr.self)
            guard header.cmsg_len >= controlLength(1), header.cmsg_level == SOL_SOCKET,
                header.cmsg_type == CInt(SCM_RIGHTS)
            else { return }
            let count = min(
                (Int(header.cmsg_len) - MemoryLayout<cmsghdr>.size) / MemoryLayout<CInt>.size,
                mostPassedDescriptors)
            for index in 0..<count {
                descriptors.append(
                    FileDescriptor(
                        rawValue: controlBytes.load(
                            fromByteOffset: MemoryLayout<cmsghdr>.size + index * MemoryLayout<CInt>.size,
                            as: CInt.self)))
            }
        }
        if count > limit || flags & CInt(MSG_CTRUNC) != 0 || flags & CInt(MSG_TRUNC) != 0 {
            for descriptor in descriptors { descriptor.close() }
            throw SystemError(Errno(rawValue: EMSGSIZE), call: "recvmsg", path: nil)
        }
        if count == 0 && descriptors.isEmpty { return nil }
        return (payload, descriptors)
    }
}

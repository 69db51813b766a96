import Glibc

/// The calls the web gallery makes beyond files: a change watch on one folder,
/// random bytes for tokens, the host's name, IPv6 address text, and starting the user's browser.
extension Sys {
    /// `inotify_init1` + `inotify_add_watch`: a non-blocking descriptor that becomes
    /// readable when a file directly in `folder` is written, created or moved in.
    /// Nothing is read from it but the fact that something happened.
    public static func watchFolderWrites(_ folder: BytePath) throws(SystemError) -> FileDescriptor {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        if fd == -1 { throw SystemError(Errno.current, call: "inotify_init1", path: folder) }
        let mask = UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE)
        let watch = folder.withCString { inotify_add_watch(fd, $0, mask) }
        if watch == -1 {
            let error = Errno.current
            Glibc.close(fd)
            throw SystemError(error, call: "inotify_add_watch", path: folder)
        }
        return FileDescriptor(rawValue: fd)
    }

    /// Reads and drops what is queued on a non-blocking descriptor (a change watch).
    public static func drain(_ fd: FileDescriptor) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd.rawValue, $0.baseAddress, $0.count) }
            if count > 0 { continue }
            if count == -1, Errno.current == .interrupted { continue }
            return
        }
    }

    /// Opens `relative` below `folder` for reading, one component at a time with
    /// `openat(O_NOFOLLOW)`: a symbolic link anywhere along it (a folder's or the
    /// file's) is refused (ELOOP or ENOTDIR), and so are `.` and `..`.
    public static func openForReadingWithoutLinks(
        _ relative: BytePath, in folder: FileDescriptor
    ) throws(SystemError) -> FileDescriptor {
        let components = relative.components
        guard let last = components.last, !relative.bytes.starts(with: [UInt8(ascii: "/")]) else {
            throw SystemError(.invalidArgument, call: "openat", path: relative)
        }
        for component in components where component.bytes == [0x2E] || component.bytes == [0x2E, 0x2E] {
            throw SystemError(.invalidArgument, call: "openat", path: relative)
        }
        var current = folder
        defer { if current.rawValue != folder.rawValue { current.close() } }
        for component in components.dropLast() {
            let next = try open(
                component, flags: O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, in: current)
            if current.rawValue != folder.rawValue { current.close() }
            current = next
        }
        return try openForReading(last, in: current)
    }

    /// `fcntl(F_DUPFD_CLOEXEC)`: a second descriptor for the same open socket or file.
    public static func duplicate(_ raw: CInt) throws(SystemError) -> FileDescriptor {
        var duplicate: CInt = -1
        try check("fcntl", nil) {
            duplicate = fcntl(raw, F_DUPFD_CLOEXEC, 0)
            return duplicate
        }
        return FileDescriptor(rawValue: duplicate)
    }

    /// `shutdown(SHUT_RDWR)` of a socket another part owns: its reader sees the end and
    /// closes it. A socket already gone is no failure.
    public static func shutdownSocket(_ raw: CInt) {
        _ = Glibc.shutdown(raw, CInt(SHUT_RDWR))
    }

    /// What a connected socket holds for reading, looked at without taking it.
    public enum SocketInput: Sendable, Equatable {
        case nothing
        case bytes
        /// The peer closed its side, or the connection was reset.
        case closed
    }

    /// `recv(MSG_PEEK | MSG_DONTWAIT)` of one byte.
    public static func peek(_ socket: FileDescriptor) -> SocketInput {
        var byte: UInt8 = 0
        while true {
            let count = recv(socket.rawValue, &byte, 1, CInt(MSG_PEEK | MSG_DONTWAIT))
            if count > 0 { return .bytes }
            if count == 0 { return .closed }
            switch Errno.current {
            case .interrupted: continue
            case .wouldBlock: return .nothing
            default: return .closed
            }
        }
    }

    /// `count` bytes from the kernel's generator (`/dev/urandom`).
    public static func randomBytes(_ count: Int) throws(SystemError) -> [UInt8] {
        let source: BytePath = "/dev/urandom"
        let fd = try open(source, flags: O_RDONLY | O_CLOEXEC)
        defer { fd.close() }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = try checkCount("read", source) {
                bytes.withUnsafeMutableBytes {
                    Glibc.read(fd.rawValue, $0.baseAddress! + filled, count - filled)
                }
            }
            if got == 0 { throw SystemError(.ioError, call: "read", path: source) }
            filled += got
        }
        return bytes
    }

    /// `gethostname(2)`.
    public static func hostName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `posix_spawnp`: starts `arguments[0]` (looked up in `$PATH`) with this process's
    /// environment and /dev/null as its input, and does not wait for it; its pid.
    public static func spawnDetached(_ arguments: [String]) throws(SystemError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let result = posix_spawnp(&child, argv[0]!, &actions, nil, argv, environ)
        guard result == 0 else {
            throw SystemError(Errno(rawValue: result), call: "posix_spawnp", path: BytePath(arguments[0]))
        }
        return child
    }

    /// `waitpid(2)`: waits for a started child to end (so it leaves no zombie); its raw status.
    @discardableResult
    public static func waitForExit(_ pid: pid_t) -> CInt? {
        var status: CInt = 0
        while true {
            if waitpid(pid, &status, 0) == pid { return status }
            if Errno.current != .interrupted { return nil }
        }
    }
}

extension Sys {
    /// `inet_pton(AF_INET6)`: the 16 bytes (network order) of an IPv6 address in
    /// text (`::1`, `fe80::1`), or nil when the text is not one.
    public static func ipv6Address(_ text: String) -> [UInt8]? {
        var address = in6_addr()
        guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: address) { Array($0) }
    }

    /// `inet_ntop(AF_INET6)`: the canonical text of 16 address bytes (`::1`).
    public static func ipv6Text(_ bytes: [UInt8]) -> String {
        precondition(bytes.count == 16, "an IPv6 address is 16 bytes")
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes) }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return "::" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

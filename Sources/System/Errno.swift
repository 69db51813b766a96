import Glibc

/// An `errno` value with readable names for the ones the product acts upon.
public struct Errno: RawRepresentable, Hashable, Sendable, Error {
    public let rawValue: CInt
    public init(rawValue: CInt) { self.rawValue = rawValue }

    public static let notPermitted = Errno(rawValue: EPERM)
    public static let noSuchFile = Errno(rawValue: ENOENT)
    public static let interrupted = Errno(rawValue: EINTR)
    public static let ioError = Errno(rawValue: EIO)
    public static let badFileDescriptor = Errno(rawValue: EBADF)
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    public static let noMemory = Errno(rawValue: ENOMEM)
    public static let permissionDenied = Errno(rawValue: EACCES)
    public static let exists = Errno(rawValue: EEXIST)
    public static let crossDevice = Errno(rawValue: EXDEV)
    public static let notDirectory = Errno(rawValue: ENOTDIR)
    public static let isDirectory = Errno(rawValue: EISDIR)
    public static let invalidArgument = Errno(rawValue: EINVAL)
    public static let tooManyOpenFiles = Errno(rawValue: EMFILE)
    public static let noSpace = Errno(rawValue: ENOSPC)
    public static let readOnlyFileSystem = Errno(rawValue: EROFS)
    public static let tooManyLinks = Errno(rawValue: EMLINK)
    public static let nameTooLong = Errno(rawValue: ENAMETOOLONG)
    public static let directoryNotEmpty = Errno(rawValue: ENOTEMPTY)
    public static let tooManySymbolicLinks = Errno(rawValue: ELOOP)
    public static let quotaExceeded = Errno(rawValue: EDQUOT)
    public static let notSupported = Errno(rawValue: EOPNOTSUPP)
    public static let noData = Errno(rawValue: ENODATA)
    public static let noDevice = Errno(rawValue: ENXIO)
    /// Not from the kernel: work given up because photofiler is stopping.
    public static let cancelled = Errno(rawValue: ECANCELED)

    /// The C library's own text for this value ("No space left on device").
    public var message: String { String(cString: strerror(rawValue)) }

    /// Out of room: the disk or the user's quota is full.
    public var isOutOfSpace: Bool { self == .noSpace || self == .quotaExceeded }

    /// Any value meaning "you may not": EACCES, EPERM, EROFS.
    public var isPermission: Bool {
        self == .permissionDenied || self == .notPermitted || self == .readOnlyFileSystem
    }

    /// The errno of the calling thread right now.
    package static var current: Errno { Errno(rawValue: errno) }
}

/// A failed system call: which call, on which path, and the errno it set.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    public let errno: Errno
    /// The system call's name, as in its man page (`linkat`, `fsync`).
    public let call: String
    public let path: BytePath?

    public init(_ errno: Errno, call: String, path: BytePath?) {
        self.errno = errno
        self.call = call
        self.path = path
    }

    public var description: String {
        if let path { return "\(call) '\(path.display)': \(errno.message)" }
        return "\(call): \(errno.message)"
    }
}

import Glibc

/// The parts of `struct stat` the product uses.
public struct FileStatus: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64
    public var mode: UInt32
    public var linkCount: UInt64
    public var size: Int64
    /// Modification time in nanoseconds since the Unix epoch.
    public var modificationNanoseconds: Int64
    /// Status change time in nanoseconds since the Unix epoch.
    public var changeNanoseconds: Int64
    public var userID: UInt32

    package init(_ raw: stat) {
        device = UInt64(raw.st_dev)
        inode = UInt64(raw.st_ino)
        mode = UInt32(raw.st_mode)
        linkCount = UInt64(raw.st_nlink)
        size = Int64(raw.st_size)
        modificationNanoseconds = Int64(raw.st_mtim.tv_sec) * 1_000_000_000 + Int64(raw.st_mtim.tv_nsec)
        changeNanoseconds = Int64(raw.st_ctim.tv_sec) * 1_000_000_000 + Int64(raw.st_ctim.tv_nsec)
        userID = UInt32(raw.st_uid)
    }

    public var kind: FileKind { FileKind(mode: mode) }
    public var isRegularFile: Bool { kind == .regular }
    public var isDirectory: Bool { kind == .directory }
    public var isSymbolicLink: Bool { kind == .symbolicLink }

    /// The same inode on the same device: another name of this file, or this name
    /// still naming it.
    public func isSameFile(as other: FileStatus) -> Bool { device == other.device && inode == other.inode }

    /// The same file with the size and modification time it had at `earlier`: not
    /// written since, as far as a `stat` can tell. A rewrite in place keeps the inode,
    /// so the inode alone does not say the bytes are the ones read.
    public func isUnchanged(since earlier: FileStatus) -> Bool {
        isSameFile(as: earlier) && size == earlier.size
            && modificationNanoseconds == earlier.modificationNanoseconds
    }

    /// Modification time in seconds since the epoch, with fractions.
    public var modificationTime: Double { Double(modificationNanoseconds) / 1e9 }
}

/// What kind of object a directory entry or inode is.
public enum FileKind: Sendable, Hashable {
    case regular, directory, symbolicLink, fifo, socket, characterDevice, blockDevice, unknown

    package init(mode: UInt32) {
        switch mode & UInt32(S_IFMT) {
        case UInt32(S_IFREG): self = .regular
        case UInt32(S_IFDIR): self = .directory
        case UInt32(S_IFLNK): self = .symbolicLink
        case UInt32(S_IFIFO): self = .fifo
        case UInt32(S_IFSOCK): self = .socket
        case UInt32(S_IFCHR): self = .characterDevice
        case UInt32(S_IFBLK): self = .blockDevice
        default: self = .unknown
        }
    }

    package init(direntType: UInt8) {
        switch Int32(direntType) {
        case Int32(DT_REG): self = .regular
        case Int32(DT_DIR): self = .directory
        case Int32(DT_LNK): self = .symbolicLink
        case Int32(DT_FIFO): self = .fifo
        case Int32(DT_SOCK): self = .socket
        case Int32(DT_CHR): self = .characterDevice
        case Int32(DT_BLK): self = .blockDevice
        default: self = .unknown
        }
    }

    /// The word a person reads in an error ("a FIFO", "a symbolic link").
    public var article: String {
        switch self {
        case .regular: return "a regular file"
        case .directory: return "a folder"
        case .symbolicLink: return "a symbolic link"
        case .fifo: return "a FIFO"
        case .socket: return "a socket"
        case .characterDevice, .blockDevice: return "a device"
        case .unknown: return "an unknown kind of file"
        }
    }
}

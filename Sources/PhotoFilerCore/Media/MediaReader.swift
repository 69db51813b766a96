/// Reads type and metadata from the bytes of one open file.
///
/// Owns a libmagic handle and uses gexiv2, libvips and libavformat, none of which
/// is safe to share across threads: one reader per serial queue.
public final class MediaReader {
    public init() throws(MediaError) {
        fatalError("MediaReader: to be written")
    }

    /// Sniffs the type from the bytes, checks the file is complete, reads its metadata.
    /// `fd` is open for reading on a regular file; `path` is for messages and for the
    /// libraries that need a name (use `/proc/self/fd/N` to reach the same inode).
    public func read(_ fd: FileDescriptor, path: BytePath, size: Int64) throws(MediaError) -> MediaInfo {
        fatalError("MediaReader.read: to be written")
    }
}

import PhotoFilerSystem

/// Why a file is not filed, as a person needs to hear it: which file, why, what to do.
public enum MediaError: Error, Sendable, Equatable {
    /// Zero bytes: an app's placeholder, or a download that has not started.
    case empty(path: BytePath)
    /// The bytes are not a supported photo or video (`detected` is libmagic's MIME type).
    case notMedia(path: BytePath, detected: String)
    /// A supported format whose end is missing (JPEG without EOI, PNG without IEND,
    /// an MP4 whose `moov` cannot be read).
    case truncated(path: BytePath, format: String)
    /// A supported format whose bytes are broken inside (a PNG chunk CRC, a box
    /// structure that does not add up), so a viewer would fail on it too.
    /// `reason` is the library's own text (or the walk's). `MediaReader.read` files
    /// such a file all the same, as one that cannot be decoded (photofiler(1) "Thumbnails":
    /// it gets no thumbnail and one log line, and is still filed), so a person
    /// hears of it from the thumbnailer, not as a refusal.
    case damaged(path: BytePath, format: String, reason: String)
    /// The file could not be read (permission, I/O error).
    case unreadable(path: BytePath, reason: String)
    /// A C library could not start (libmagic's database missing, say).
    case libraryUnavailable(name: String, reason: String)
    /// The sandboxed reader failed on this file (`what`: it crashed on it twice, ran
    /// out of memory or CPU time, answered nonsense).
    case readerFailed(path: BytePath, what: String)
    /// The sandboxed reader was still on this file after `seconds`: a parser loops on it.
    case readerTimedOut(path: BytePath, seconds: Int)
    /// No sandboxed reader could be started.
    case readerUnavailable(path: BytePath, reason: String)
    /// photofiler stopped before a sandboxed reader got to this file.
    case notReadBeforeStop(path: BytePath)
    /// The light reader, which maps no decoder, met a file that needs `library`
    /// (libvips, libavformat): the helper pool hands it to a reader that maps it, so
    /// a person sees this only when that one cannot start.
    case needsDecoders(path: BytePath, library: String)
    /// An image larger than a helper reads (`limit` bytes; it maps a picture whole,
    /// within its address-space limit). Nothing is wrong with the file.
    case tooLarge(path: BytePath, format: String, size: Int64, limit: Int64)
}

extension MediaError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .empty(let path):
            return
                "'\(path.display)' is empty (0 bytes); it is left where it is: a file is filed once its bytes are in it."
        case .notMedia(let path, let detected):
            return
                "'\(path.display)' is not a photo or video (its content is \(detected)); it is left where it is, as photofiler files only photos and videos."
        case .truncated(let path, let format):
            return
                "'\(path.display)' is an incomplete \(format) file (its end is missing); it is left where it is: save it again from the app."
        case .damaged(let path, let format, let reason):
            return
                "'\(path.display)' is a damaged \(format) file (\(reason)): no viewer can show it; get it again from where it came."
        case .unreadable(let path, let reason):
            return "'\(path.display)' cannot be read (\(reason)); give photofiler read access to it."
        case .libraryUnavailable(let name, let reason):
            return "\(name) could not start (\(reason)); reinstall it with 'make deps'."
        case .readerFailed(let path, let what):
            return
                "'\(path.display)' could not be read: photofiler's sandboxed reader \(what) on it; it is left where it is: open it in a viewer, and save it again from the app if it is broken."
        case .readerTimedOut(let path, let seconds):
            return
                "'\(path.display)' could not be read: photofiler's sandboxed reader was still on it after \(seconds) s (its bytes make a parser loop); it is left where it is: save it again from the app."
        case .readerUnavailable(let path, let reason):
            return
                "'\(path.display)' was not read: photofiler's sandboxed reader is unavailable (\(reason)); it is left where it is: reinstall photofiler with 'make install' (it installs photofiler-helper-light and photofiler-helper)."
        case .notReadBeforeStop(let path):
            return
                "'\(path.display)' was not read before photofiler stopped; it is left where it is and read at the next start."
        case .tooLarge(let path, let format, let size, let limit):
            return
                "'\(path.display)' is a \(format) of \(size >> 20) MiB, larger than the \(limit >> 20) MiB photofiler reads an image of; it is left where it is: save a smaller copy of it to file it."
        case .needsDecoders(let path, let library):
            return
                "'\(path.display)' was not read: it needs \(library), which photofiler's light reader does not load; it is left where it is: reinstall photofiler with 'make install' (it installs photofiler-helper)."
        }
    }
}

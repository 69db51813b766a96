import PhotoFilerSystem

/// Why a folder or file of the library could not be looked at. What it holds is
/// unknown, not gone (photofiler(1) "Deletion": permissions, an I/O error, an unmounted disk),
/// so nothing in it is ended; each reason names its own fix.
public enum LookFailure: Sendable, Equatable {
    /// The system refused the look (permissions, an I/O error).
    case system(Errno)
    /// An empty folder on another device than at the last reconcile: the disk that
    /// was mounted there is not, and the empty folder below it shows through.
    case notMounted
    /// A symbolic link where the last reconcile saw a folder of the Roll (moved to
    /// another disk and linked back): photofiler does not follow links in the Roll.
    case symbolicLink

    /// The clause of a sentence that says what was found and what to do.
    var explanation: String {
        switch self {
        case .system(let errno):
            return
                "(\(errno.message)); nothing in it is counted as gone: fix its permissions or mount it"
        case .notMounted:
            return
                "(an empty folder where a disk was mounted); nothing in it is counted as gone: mount the disk again, or remove the empty folder if its photos are gone for good"
        case .symbolicLink:
            return
                "(a symbolic link, which photofiler does not follow in the Roll); nothing it leads to is counted as gone: move the folder back in place of the link"
        }
    }
}

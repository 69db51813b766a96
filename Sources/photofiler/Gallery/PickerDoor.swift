import FoundationEssentials
import Glibc
import PhotoFilerFiling
import PhotoFilerSystem

/// The file `pick` gives the browser instead of the picker's address: a page that
/// leads on to it, readable by the user alone (mode 0600, made anew with `O_EXCL`
/// under a random name, so nothing planted there is written through). A command
/// line is in `/proc/PID/cmdline` for every user to read; this file is not, and it
/// is gone when `pick` ends.
///
/// In `$XDG_RUNTIME_DIR` (the user's own folder), else `$TMPDIR`, else /tmp.
struct PickerDoor: Sendable {
    let path: BytePath

    static func create(environment: [String: String]) throws(SystemError) -> PickerDoor {
        let folder =
            [environment["XDG_RUNTIME_DIR"], environment["TMPDIR"]].compactMap { $0 }
            .first { $0.hasPrefix("/") } ?? "/tmp"
        let name = try AccessToken.generate().prefix(16)
        let path = BytePath(folder).appending("photofiler-pick-" + name + ".html")
        try Sys.createExclusive(path, mode: 0o600).close()
        return PickerDoor(path: path)
    }

    /// Writes the page that leads to `address` (a refresh at once, and a link).
    func lead(to address: String) throws(SystemError) {
        let escaped = address.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(
            of: "\"", with: "&quot;")
        let page = """
            <!DOCTYPE html>
            <meta charset="utf-8">
            <meta name="referrer" content="no-referrer">
            <meta http-equiv="refresh" content="0; url=\(escaped)">
            <title>photofiler pick</title>
            <p><a href="\(escaped)">Open the picker</a></p>

            """
        let fd = try Sys.open(path, flags: O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC)
        defer { fd.close() }
        try fd.writeAll(Array(page.utf8))
    }

    /// Gone with the picker: its token opens nothing once `pick` has ended anyway.
    func remove() {
        // On the way out: a file that cannot be removed is left for the session's end (its folder's).
        try? Sys.unlinkIfPresent(path)
    }
}

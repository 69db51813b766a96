import Glibc
import PhotoFilerMediaTypes
import PhotoFilerSystem

/// Which helper program: `photofiler-helper-light` reads every file first, with libmagic and
/// exiv2 only, and starts on an eighth of the CPU; `photofiler-helper` has every
/// decoder, for what the light one hands on and for thumbnails (`MediaDecoders`).
package enum HelperKind: Sendable, CaseIterable {
    case light, full

    package var executableName: String {
        switch self {
        case .light: "photofiler-helper-light"
        case .full: "photofiler-helper"
        }
    }
}

/// Where the helpers are: beside the running binary (a build folder, or an
/// install that put them all in one folder), else in `../libexec/photofiler/` from it
/// (what `make install` does: `$(PREFIX)/bin/photofiler`,
/// `$(PREFIX)/libexec/photofiler/photofiler-helper`). Found through `/proc/self/exe`,
/// so neither `$PATH` nor the working folder decides which program reads strangers' bytes.
package enum HelperExecutable {
    /// The argument a helper is started with; without it the program refuses to run.
    package static let modeArgument = "__helper"
    /// The descriptor number the helper finds its socket at.
    package static let socketDescriptor: CInt = 3

    /// The helper's path, or why there is none (a reason for `MediaError.readerUnavailable`).
    package static func locate(_ kind: HelperKind) -> Result<BytePath, Unavailable> {
        let name = kind.executableName
        let own: BytePath
        do {
            own = try Sys.readLink("/proc/self/exe")
        } catch {
            return .failure(Unavailable(reason: "/proc/self/exe cannot be read: \(error)"))
        }
        let folder = own.parent
        let candidates = [
            folder.appending(name),
            folder.parent.appending("libexec/photofiler").appending(name),
        ]
        for candidate in candidates where Sys.isAccessible(candidate, mode: X_OK) {
            return .success(candidate)
        }
        let looked = candidates.map { "'\($0.display)'" }.joined(separator: " or ")
        return .failure(Unavailable(reason: "no \(name) at \(looked)"))
    }

    package struct Unavailable: Error {
        package var reason: String
    }
}

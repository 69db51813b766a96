import Glibc
import PhotoFilerMediaTypes
import PhotoFilerSandbox
import PhotoFilerSystem
import Synchronization

/// Thumbnails made by a sandboxed helper (photofiler(1) "Untrusted bytes"): decoding pixels
/// is the riskiest thing done with a stranger's bytes, so it is never done here.
///
/// The helper may not open a path, so the output is a file opened here first: a
/// name of this process's own in `.photofiler/tmp`, opened for writing (handed to
/// the helper) and for reading (kept), and unlinked at once, so nothing is left
/// behind whatever happens. The helper writes the renditions one after another and
/// answers their sizes; they are read back from the kept descriptor.
///
/// What the helper could not decode is `.undecodable` (remembered, not tried at
/// every start); what failed here (no room for the output, a read back) is
/// `.system`, and no helper to be had `.unavailable`: both are tried again later.
struct SandboxedThumbnails {
    private static let counter = Atomic<Int>(0)

    let helpers: HelperPool
    let temporaryFolder: BytePath

    func make(_ fd: FileDescriptor, path: BytePath, size: Int64, _ request: ThumbnailRequest)
        throws(ThumbnailError) -> [EncodedThumbnail]
    {
        let (output, readBack) = try openOutput()
        let answer = helpers.thumbnails(MediaFile(fd: fd, path: path, size: size), request, into: output)
        output.close()
        defer { readBack.close() }
        let layout: ThumbnailLayout
        switch answer {
        case .success(let made): layout = made
        case .failure(let failure) where failure.isTransient:
            throw .unavailable(path: path, reason: failure.reason)
        case .failure(let failure): throw .undecodable(path: path, reason: failure.reason)
        }
        var offset: Int64 = 0
        var made: [EncodedThumbnail] = []
        for part in layout.parts {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(part.length), alignment: 1)
            defer { buffer.deallocate() }
            do throws(SystemError) {
                var done = 0
                while done < buffer.count {
                    let count = try readBack.read(
                        into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]),
                        at: offset + Int64(done))
                    guard count > 0 else { throw SystemError(Errno(rawValue: EIO), call: "pread", path: nil) }
                    done += count
                }
            } catch {
                throw .system(error)
            }
            let bytes = Array(UnsafeRawBufferPointer(buffer))
            offset += part.length
            made.append(EncodedThumbnail(width: part.width, height: part.height, bytes: bytes))
        }
        return made
    }

    /// The output file's two descriptors (for the helper, for reading back), its name already gone.
    private func openOutput() throws(ThumbnailError) -> (output: FileDescriptor, readBack: FileDescriptor) {
        let number = Self.counter.add(1, ordering: .relaxed).newValue
        let name = temporaryFolder.appending(".thumbnail-out-\(getpid())-\(number).tmp")
        do throws(SystemError) {
            _ = try Sys.makeDirectories(temporaryFolder)
            try? Sys.unlinkIfPresent(name)  // left by an earlier process with this pid
            let output = try Sys.createExclusive(name, mode: 0o600)
            defer { try? Sys.unlinkIfPresent(name) }
            do {
                return (output, try Sys.openForReading(name))
            } catch {
                output.close()
                throw error
            }
        } catch {
            throw .system(error)
        }
    }
}

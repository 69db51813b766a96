import Glibc
import PhotoFilerCatalog
import PhotoFilerSystem

/// `photofiler export ID --video`: a Live Photo's video as a file of its own.
extension PhotoLibrary {
    /// Writes the video to `path` (created or truncated), or to stdout when nil.
    public func exportLiveVideo(_ id: AssetID, toFile path: BytePath?) throws(FilingError) {
        guard let path else {
            try exportLiveVideo(id, to: FileDescriptor(rawValue: STDOUT_FILENO))
            return
        }
        let output = try filer.systemCall(path) { () throws(SystemError) in
            try Sys.open(path, flags: O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode: 0o644)
        }
        defer { output.close() }
        try exportLiveVideo(id, to: output)
    }

    /// Copies the asset's paired video, or the byte range of a motion photo's
    /// embedded one (the still's file is only read), to `output`. Returns the bytes written.
    @discardableResult
    public func exportLiveVideo(_ id: AssetID, to output: FileDescriptor) throws(FilingError) -> Int64 {
        guard let asset = try filer.catalogCall({ () throws(CatalogError) in try catalog.asset(id: id) })
        else {
            throw .unknownAsset(id: id)
        }
        guard let video = asset.liveVideo else { throw .notLivePhoto(id: id) }
        let file: BytePath
        let offset: Int64
        if let embedded = video.embeddedOffset {
            file = layout.absolute(asset.currentPath)
            offset = embedded
        } else if let path = video.trashPath ?? video.rollPath {
            file = layout.absolute(path)
            offset = 0
        } else {
            throw .notLivePhoto(id: id)
        }
        return try filer.systemCall(file) { () throws(SystemError) -> Int64 in
            let input = try Sys.openForReading(file)
            defer { input.close() }
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
            defer { buffer.deallocate() }
            var done: Int64 = 0
            while done < video.size {
                let wanted = Int(min(Int64(buffer.count), video.size - done))
                let got = try input.read(
                    into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted]), at: offset + done)
                guard got > 0 else { throw SystemError(.ioError, call: "read", path: file) }
                try output.writeAll(UnsafeRawBufferPointer(rebasing: buffer[..<got]))
                done += Int64(got)
            }
            return done
        }
    }
}

import Glibc
import PhotoFilerCatalog
import PhotoFilerSystem

/// `photofiler export ID --video`: a Live Photo's video as a file of its own.
extension PhotoLibrary {
    /// Writes the video to `path` (`openOutput`: never a file of the library), or to stdout when nil.
    /// `path` is opened only once the video is found and open: a failed export
    /// leaves a file that was there as it was.
    public func exportLiveVideo(_ id: AssetID, toFile path: BytePath?) throws(FilingError) {
        let video = try openLiveVideo(id)
        defer { video.input.close() }
        guard let path else {
            try copy(video, to: FileDescriptor(rawValue: STDOUT_FILENO))
            return
        }
        let output = try openOutput(path)
        defer { output.close() }
        try copy(video, to: output)
    }

    /// Copies the asset's paired video, or the byte range of a motion photo's
    /// embedded one (the still's file is only read), to `output`. Returns the bytes written.
    @discardableResult
    public func exportLiveVideo(_ id: AssetID, to output: FileDescriptor) throws(FilingError) -> Int64 {
        let video = try openLiveVideo(id)
        defer { video.input.close() }
        return try copy(video, to: output)
    }

    /// A Live Photo's video, open: the file that holds it and where in that file it lies.
    private struct OpenVideo {
        let input: FileDescriptor
        let path: BytePath
        let offset: Int64
        let size: Int64
    }

    private func openLiveVideo(_ id: AssetID) throws(FilingError) -> OpenVideo {
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
        do {
            let input = try Sys.openForReading(file)
            return OpenVideo(input: input, path: file, offset: offset, size: video.size)
        } catch  where error.errno == .noSuchFile {
            throw .missingFromLibrary(path: file)
        } catch {
            throw FilingError.from(error, library: layout, source: file)
        }
    }

    @discardableResult
    private func copy(_ video: OpenVideo, to output: FileDescriptor) throws(FilingError) -> Int64 {
        try filer.systemCall(video.path) { () throws(SystemError) -> Int64 in
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
            defer { buffer.deallocate() }
            var done: Int64 = 0
            while done < video.size {
                let wanted = Int(min(Int64(buffer.count), video.size - done))
                let got = try video.input.read(
                    into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted]), at: video.offset + done)
                guard got > 0 else { throw SystemError(.ioError, call: "read", path: video.path) }
                try output.writeAll(UnsafeRawBufferPointer(rebasing: buffer[..<got]))
                done += Int64(got)
            }
            return done
        }
    }
}

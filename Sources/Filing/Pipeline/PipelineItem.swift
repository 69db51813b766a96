import PhotoFilerCatalog
import PhotoFilerMediaTypes
import PhotoFilerSystem

/// One file on its way through the pipeline: what inspection found, what was
/// decided, and what each step has made so far (so that an undo knows what to take
/// back).
struct PipelineItem {
    /// Its position among the group's requests (its result's position).
    var index: Int
    var request: FilingRequest
    /// The file named in errors and removed at the end in move mode.
    var source: BytePath
    /// What the Roll links: the source, its copy in `.photofiler/tmp`, or (restore) the
    /// Recently Deleted file.
    var bytes: BytePath
    /// The open source, synced in step 2 unless its bytes are durable already.
    var fd: FileDescriptor?
    var bytesDurable: Bool
    /// A copy made for this file in `.photofiler/tmp`, removed once the group is done.
    var stagedCopy: BytePath?
    /// The source's status when it was opened (keep mode remembers it).
    var status: FileStatus?
    var hash: String
    /// New content's facts (nil for `restore` of a Recently Deleted asset).
    var draft: AssetDraft?
    var plan: FilingPlan = .new
    var album: AlbumRecord?
    /// A Live Photo's video whose still is filed goes into the still's folder.
    var rollFolder: BytePath?

    // Made by the steps.
    var rollPath: BytePath?
    var entries: [AlbumEntry] = []
    /// A restored Live Photo's video, linked back from Recently Deleted (absolute),
    /// and the Recently Deleted file that goes once the restore is recorded.
    var restoredVideo: (rollFile: BytePath, trashFile: BytePath)?
    var asset: AssetRecord?
    var failure: FilingError?
    /// Move mode: its name held another file, or the file had changed, when it was to
    /// go, so it stayed (`Filer.removeSource`).
    var sourceStayedChanged = false

    var isActive: Bool { failure == nil }

    /// Still on its way, and it brings an asset back from Recently Deleted.
    var restores: Bool {
        guard isActive, case .restore = plan else { return false }
        return true
    }

    /// Still on its way, and its own bytes enter the Roll (step 2 makes them durable).
    var isPlacingBytes: Bool { isActive && plan.placesBytes }

    /// A roll link made for it is another name of the source itself (not of a staged
    /// copy, nor of a Recently Deleted file that a Live Photo's video brings back).
    var linksSource: Bool { bytes == source }
}

/// One album entry the pipeline made: the still's (or the asset's) link, and a Live
/// Photo's video link beside it. `still` is nil when the asset is a member already
/// and only its video's entry was missing (a crash before a pairing recorded it).
struct AlbumEntry {
    var album: AlbumRecord
    var still: BytePath?
    var video: BytePath?
}

extension PipelineItem {
    /// A file inspected (or staged) and ready to file.
    init(index: Int, file: InspectedFile, stagedCopy: BytePath?) {
        self.init(
            index: index, request: file.request, source: file.source, bytes: stagedCopy ?? file.source,
            fd: file.fd, bytesDurable: file.bytesDurable || stagedCopy != nil, stagedCopy: stagedCopy,
            status: file.status,
            hash: file.hash,
            draft: AssetDraft(
                hash: file.hash, size: file.size, info: file.info, originalName: file.source.lastComponent,
                modificationNanoseconds: file.status.modificationNanoseconds,
                sourceInbox: file.request.origin))
    }
}

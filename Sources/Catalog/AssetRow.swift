import PhotoFilerMediaTypes
import PhotoFilerSystem

/// How an `AssetRecord` maps to an `assets` row, kept in one place so the
/// SELECT list, the INSERT and the decoder cannot drift apart.
package enum AssetRow {
    /// Qualified with `a.` so it can follow a join with `memberships`.
    package static let columns = """
        a.id, a.roll_path, a.hash, a.media_type, a.mime, a.subtypes, a.pixel_width, a.pixel_height, \
        a.orientation, a.duration, a.frame_count, a.embedded_at, a.embedded_offset, a.embedded_source, \
        a.created_at, a.created_offset, a.created_source, a.added_at, a.size, a.original_name, \
        a.source_inbox, a.favorite, a.deleted_at, a.trash_path, a.content_identifier, a.live_video_path, \
        a.live_video_hash, a.live_video_size, a.live_video_duration, a.live_video_offset, a.live_video_name, \
        a.live_video_trash_path, a.hidden
        """

    package static let insert = """
        INSERT INTO assets (id, roll_path, hash, media_type, mime, subtypes, pixel_width, pixel_height, \
        orientation, duration, frame_count, embedded_at, embedded_offset, embedded_source, created_at, \
        created_offset, created_source, added_at, size, original_name, source_inbox, favorite, deleted_at, \
        trash_path, content_identifier, live_video_path, live_video_hash, live_video_size, live_video_duration, \
        live_video_offset, live_video_name, live_video_trash_path, hidden) \
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// The values for `insert`; `id` is NULL when SQLite should assign it.
    package static func values(_ asset: AssetRecord, id: AssetID?) -> [SQLiteValue] {
        let info = asset.info
        return [
            .integer(id), .path(asset.rollPath), .text(asset.hash), .text(info.mediaType.rawValue),
            .text(info.mimeType), .text(info.subtypes.joined(separator: ",")), .int(info.pixelWidth),
            .int(info.pixelHeight), .int(info.orientation), .real(info.duration), .int(info.frameCount),
            .integer(info.embeddedDate?.secondsSinceEpoch), .int(info.embeddedDate?.utcOffsetSeconds),
            .text(info.embeddedDate?.source.rawValue), .integer(asset.created.secondsSinceEpoch),
            .int(asset.created.utcOffsetSeconds), .text(asset.created.source.rawValue), .real(asset.addedAt),
            .integer(asset.size), .path(asset.originalName), .text(asset.sourceInbox), .bool(asset.favorite),
            .real(asset.deletedAt), .path(asset.trashPath), .text(info.live.contentIdentifier),
        ] + liveVideoValues(asset.liveVideo) + [.bool(asset.hidden)]
    }

    /// Empties the `live_video_*` columns (a WHERE clause follows).
    package static let clearLiveVideo = """
        UPDATE assets SET live_video_path = NULL, live_video_hash = NULL, live_video_size = NULL, \
        live_video_duration = NULL, live_video_offset = NULL, live_video_name = NULL, live_video_trash_path = NULL
        """

    /// The `live_video_*` columns, in `insert`'s order.
    package static func liveVideoValues(_ video: LiveVideoRecord?) -> [SQLiteValue] {
        [
            .path(video?.rollPath), .text(video?.hash), .integer(video?.size), .real(video?.duration),
            .integer(video?.embeddedOffset), .path(video?.originalName), .path(video?.trashPath),
        ]
    }

    /// Decodes a row selected with `columns` (starting at column 0).
    package static func decode(_ row: Statement, path: BytePath) throws(CatalogError) -> AssetRecord {
        let id = row.int64(0)
        func damaged(_ what: String) -> CatalogError {
            .corrupt(path: path, reason: "asset \(id) has \(what)")
        }
        guard let mediaType = MediaType(rawValue: row.text(3)) else {
            throw damaged("an unknown media type '\(row.text(3))'")
        }
        var embedded: CaptureDate?
        if let seconds = row.optionalInt64(11) {
            guard let source = CaptureDate.Source(rawValue: row.text(13)) else {
                throw damaged("an unknown date source '\(row.text(13))'")
            }
            embedded = CaptureDate(
                secondsSinceEpoch: seconds, utcOffsetSeconds: row.optionalInt64(12).map(Int.init),
                source: source)
        }
        guard let createdSource = CaptureDate.Source(rawValue: row.text(16)) else {
            throw damaged("an unknown date source '\(row.text(16))'")
        }
        let subtypes = row.text(5)
        var info = MediaInfo(
            mediaType: mediaType, mimeType: row.text(4),
            subtypes: subtypes.isEmpty ? [] : subtypes.split(separator: ",").map(String.init),
            pixelWidth: row.int(6), pixelHeight: row.int(7), orientation: row.int(8), embeddedDate: embedded,
            duration: row.optionalDouble(9), frameCount: row.int(10))
        info.live.contentIdentifier = row.optionalText(24)
        var video: LiveVideoRecord?
        if let size = row.optionalInt64(27) {
            video = LiveVideoRecord(
                rollPath: row.optionalPath(25), hash: row.optionalText(26), size: size,
                duration: row.optionalDouble(28), embeddedOffset: row.optionalInt64(29),
                originalName: row.optionalPath(30), trashPath: row.optionalPath(31))
            if let offset = video?.embeddedOffset {
                info.live.embeddedVideo = EmbeddedVideo(
                    offset: offset, length: size, duration: video?.duration)
            }
        }
        return AssetRecord(
            id: id, rollPath: row.path(1), hash: row.text(2), info: info,
            created: CaptureDate(
                secondsSinceEpoch: row.int64(14), utcOffsetSeconds: row.optionalInt64(15).map(Int.init),
                source: createdSource),
            addedAt: row.double(17), size: row.int64(18), originalName: row.path(19),
            sourceInbox: row.optionalText(20), favorite: row.int64(21) != 0, hidden: row.int64(32) != 0,
            deletedAt: row.optionalDouble(22),
            trashPath: row.optionalPath(23), liveVideo: video)
    }
}

/// The SQL of every look-up of whole asset rows, each built once: the SELECT list
/// is some 600 bytes, and building the text on every call was an allocation and a
/// copy per look-up (several a filed file), and a new key to hash for the
/// connection's statement cache.
enum AssetLookups {
    static let byID = selecting(where: "a.id = ?")
    /// Both indexes in one statement (SQLite's multi-index OR): the filing plan asks
    /// of every file whose content and whose Live Photo video its bytes are.
    static let byHashOrLiveVideoHash = selecting(where: "a.hash = ?1 OR a.live_video_hash = ?1")
    static let liveByRollPath = selecting(where: "a.roll_path = ? AND a.deleted_at IS NULL")
    static let newestDeletedByRollPath = selecting(
        where: "a.roll_path = ? AND a.deleted_at IS NOT NULL ORDER BY a.id DESC")
    static let byTrashPath = selecting(where: "a.trash_path = ?")
    static let all = "SELECT \(AssetRow.columns) FROM assets a ORDER BY a.id"
    static let deletedBefore = selecting(
        where: "a.deleted_at IS NOT NULL AND a.deleted_at < ? ORDER BY a.deleted_at, a.id")
    static let byLiveVideoHash = selecting(where: "a.live_video_hash = ?")
    static let liveByLiveVideoPath = selecting(where: "a.live_video_path = ? AND a.deleted_at IS NULL")
    static let newestByLiveVideoPath = selecting(where: "a.live_video_path = ? ORDER BY a.id DESC")
    static let oldestUnpairedStill = selecting(
        where: """
            a.content_identifier = ? AND a.deleted_at IS NULL AND a.media_type = 'image' \
            AND a.live_video_size IS NULL ORDER BY a.id LIMIT 1
            """)
    static let oldestLoneVideo = selecting(
        where: """
            a.content_identifier = ? AND a.deleted_at IS NULL AND a.media_type = 'video' \
            ORDER BY a.id LIMIT 1
            """)

    private static func selecting(where condition: String) -> String {
        "SELECT \(AssetRow.columns) FROM assets a WHERE \(condition)"
    }
}

import Dispatch
import PhotoFilerSystem

/// Who a request showed itself to be: what decides which connections stay when
/// slots run short.
public enum ClientStanding: Sendable, Equatable {
    /// No credentials, or none that held (on a loopback gallery without a token, anyone).
    case anonymous
    /// A share link's token or session: one shared album (by its token's hash).
    case visitor(share: String)
    /// The gallery's token, its session cookie or its pages' write token.
    case owner
}

/// The gallery's own count of its connections, shared by its listeners, so that no
/// one who can merely connect holds the slots the owner needs (libmicrohttpd's
/// per-address limit and idle timeout count bytes, not standing: a byte every few
/// seconds kept a connection, and 64 of them from 127.0.0.1 shut the owner out).
///
/// - A connection is anonymous until one of its requests shows the owner's or a
///   share's credentials. An anonymous or visiting connection must send a whole
///   request head within `headSeconds` of connecting, and of each answer.
/// - When the gallery is full, or an address holds its share of slots, a new
///   connection takes the slot of the oldest anonymous one (the owner's, once it has
///   shown its credentials, is never taken); with none to take, it is refused.
/// - Event streams are capped per address (the owner's aside) and per share.
///
/// A connection is ended by `shutdown(2)` of its socket: libmicrohttpd then reads
/// its end and closes it. Only under `lock`, and only before its close notice
/// (which comes before libmicrohttpd closes the socket), so the descriptor is never
/// another's by then.
///
/// `@unchecked Sendable`: every field but the constants is guarded by `lock`.
public final class ConnectionGuard: @unchecked Sendable {
    struct Client {
        let address: [UInt8]
        let socket: CInt
        /// When it connected (oldest first when a slot is taken).
        let order: UInt64
        var standing: ClientStanding = .anonymous
        /// When it must have sent a whole request head (nanoseconds of uptime), or nil.
        var deadline: UInt64?
        var streaming = false
        /// Shut down, its close notice still to come: no longer counted.
        var ended = false
    }

    public let limits: HTTPLimits
    private let log: Logger
    private let lock = ThreadLock()
    private var clients: [OpaquePointer: Client] = [:]
    private var order: UInt64 = 0
    private var sweepArmed = false
    private let sweeps = DispatchQueue(label: "photofiler.gallery.deadlines")

    public init(limits: HTTPLimits, log: Logger) {
        self.limits = limits
        self.log = log
    }

    /// The accept policy: room for a new connection from `address`, made by ending an
    /// anonymous one when the gallery or the address is full; false to refuse it.
    func mayAccept(_ address: [UInt8]) -> Bool {
        lock.withLock {
            let live = clients.filter { !$0.value.ended }
            let fromAddress = live.filter { $0.value.address == address && $0.value.standing != .owner }
            if fromAddress.count >= Int(limits.connectionsPerAddress) {
                guard endOldestAnonymous(among: fromAddress) else { return false }
            }
            if live.count >= Int(limits.connections) {
                guard endOldestAnonymous(among: live) else { return false }
            }
            return true
        }
    }

    /// Under `lock`.
    private func endOldestAnonymous(among candidates: [OpaquePointer: Client]) -> Bool {
        guard
            let oldest = candidates.filter({ $0.value.standing == .anonymous && !$0.value.ended })
                .min(by: { $0.value.order < $1.value.order })
        else { return false }
        end(oldest.key, because: "its slot was needed")
        return true
    }

    /// Under `lock`.
    private func end(_ connection: OpaquePointer, because reason: String) {
        guard var client = clients[connection], !client.ended else { return }
        client.ended = true
        clients[connection] = client
        Sys.shutdownSocket(client.socket)
        log.debug("Gallery: a connection from \(Self.text(client.address)) was ended: \(reason).")
    }

    func started(_ connection: OpaquePointer, address: [UInt8], socket: CInt) {
        lock.withLock {
            order += 1
            clients[connection] = Client(
                address: address, socket: socket, order: order, deadline: deadline())
        }
        armSweep()
    }

    func closed(_ connection: OpaquePointer) {
        _ = lock.withLock { clients.removeValue(forKey: connection) }
    }

    /// A whole request head came: no deadline while it is answered.
    func headArrived(_ connection: OpaquePointer) {
        lock.withLock { clients[connection]?.deadline = nil }
    }

    /// What the answer to its request showed it to be; an owner's stays the owner's.
    func answered(_ connection: OpaquePointer, as standing: ClientStanding) {
        lock.withLock {
            guard let client = clients[connection], client.standing != .owner else { return }
            clients[connection]?.standing = standing
        }
    }

    /// A request is done: anyone but the owner has `headSeconds` for the next head.
    func completed(_ connection: OpaquePointer) {
        let armed = lock.withLock { () -> Bool in
            guard let client = clients[connection] else { return false }
            clients[connection]?.streaming = false
            guard client.standing != .owner else { return false }
            clients[connection]?.deadline = deadline()
            return true
        }
        if armed { armSweep() }
    }

    /// Whether the connection may hold an event stream: the owner's always (the total
    /// bounds them), anyone else's within the caps of its address and of its share.
    func mayStream(_ connection: OpaquePointer) -> Bool {
        lock.withLock {
            guard let client = clients[connection] else { return false }
            let streams = clients.values.filter { $0.streaming && !$0.ended }
            if client.standing != .owner {
                let fromAddress = streams.filter { $0.address == client.address && $0.standing != .owner }
                guard fromAddress.count < Int(limits.eventStreamsPerAddress) else { return false }
            }
            if case .visitor(let share) = client.standing {
                let ofShare = streams.filter { $0.standing == .visitor(share: share) }
                guard ofShare.count < Int(limits.eventStreamsPerShare) else { return false }
            }
            clients[connection]?.streaming = true
            return true
        }
    }

    private func deadline() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds + UInt64(limits.headSeconds) * 1_000_000_000
    }

    /// One timer while a deadline is pending, at the earliest; none otherwise.
    private func armSweep() {
        let next: UInt64? = lock.withLock {
            guard !sweepArmed, let earliest = clients.values.compactMap(\.deadline).min() else { return nil }
            sweepArmed = true
            return earliest
        }
        guard let next else { return }
        sweeps.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: next)) { [weak self] in self?.sweep() }
    }

    private func sweep() {
        let now = DispatchTime.now().uptimeNanoseconds
        lock.withLock {
            sweepArmed = false
            for (connection, client) in clients where !client.ended {
                if let deadline = client.deadline, deadline <= now {
                    end(connection, because: "no whole request within \(limits.headSeconds) s")
                }
            }
        }
        armSweep()
    }

    /// An address for the log.
    private static func text(_ address: [UInt8]) -> String {
        address.count == 4 ? address.map(String.init).joined(separator: ".") : Sys.ipv6Text(address)
    }
}

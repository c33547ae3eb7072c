import Foundation
import OffgridCore

/// Reads an `.osm.pbf` file: the header at open, then data blocks decoded on worker threads.
///
/// `forEachBlock` is a map/reduce over blocks: `map` runs on the workers (any order, in
/// parallel) while each block's view is alive; `reduce` runs on the calling thread in file
/// order. Memory in flight is bounded by a few blobs per worker, whatever the file size.
public final class PBFReader {
    public let path: String
    public let header: PBFHeader
    public let fileSize: Int64
    /// Decoding threads; 2 cores → 2 workers while the caller reads frames and reduces.
    public var threads: Int

    public init(path: String, threads: Int = ProcessInfo.processInfo.activeProcessorCount) throws {
        self.path = path
        self.threads = max(1, threads)
        let framer = try BlobFramer(path: path)
        fileSize = framer.fileSize
        guard let first = try framer.next() else { throw InputError(file: path, "empty file, not an OSM PBF file") }
        header = try BlobDecoder(path: path).decodeHeader(first)
    }

    /// A blob to (re)visit in a later pass: where it starts and its number.
    public struct BlobLocation: Hashable, Sendable {
        public let index: Int
        public let offset: Int64
    }

    /// Runs `map` on every data block (or only on `only`'s blobs, for second passes) and
    /// `reduce` on the results in file order. `progress` gets bytes read so far.
    public func forEachBlock<T>(only: [BlobLocation]? = nil,
                                progress: ((Int64) -> Void)? = nil,
                                map: @escaping (PrimitiveBlock) throws -> T,
                                reduce: (BlobLocation, T) throws -> Void) throws {
        try forEachBlob(only: only, progress: progress, work: { decoder, blob in
            try decoder.withPrimitiveBlock(blob, map)
        }, reduce: reduce)
    }

    /// `forEachBlock` for a pass that wants ways and relations: a block whose first group holds
    /// nodes is not decoded (a peek at its first bytes tells) and reaches `reduce` as nil, to be
    /// read later with `only:` if needed. Blocks that mix nodes with other objects after a node
    /// group are the caller's to detect in that later read (`PrimitiveBlock.wayCount` etc.).
    public func forEachBlockSkippingNodeBlocks<T>(progress: ((Int64) -> Void)? = nil,
                                                  map: @escaping (PrimitiveBlock) throws -> T,
                                                  reduce: (BlobLocation, T?) throws -> Void) throws {
        try forEachBlob(only: nil, progress: progress, work: { decoder, blob -> T? in
            if decoder.firstGroupHoldsNodes(blob) { return nil }
            return try decoder.withPrimitiveBlock(blob, map)
        }, reduce: reduce)
    }

    private func forEachBlob<T>(only: [BlobLocation]?, progress: ((Int64) -> Void)?,
                                work: @escaping (BlobDecoder, RawBlob) throws -> T,
                                reduce: (BlobLocation, T) throws -> Void) throws {
        let pipeline = BlockPipeline<T>(path: path, workers: threads, work: work)
        defer { pipeline.stop() }
        let framer = try BlobFramer(path: path)
        var submitted = 0
        var reduced = 0
        func drain(untilBelow limit: Int) throws {
            while submitted - reduced > limit {
                let (location, result) = pipeline.take(index: reduced)
                try reduce(location, try result.get())
                reduced += 1
            }
        }
        var pending = only?.sorted { $0.offset < $1.offset }[...]
        while true {
            if var list = pending {
                guard let next = list.popFirst() else { break }
                pending = list
                framer.seek(offset: next.offset, index: next.index)
            }
            guard let blob = try framer.next() else { break }
            switch blob.kind {
            case .data:
                pipeline.submit(sequence: submitted, blob: blob)
                submitted += 1
                progress?(framer.bytesRead)
                try drain(untilBelow: threads * 3)
            case .header:
                if blob.index != 0 { throw InputError(file: path, offset: Int(blob.offset), "second OSMHeader blob in the file") }
            case .other:
                continue // unknown blob types are skipped, as the spec asks
            }
        }
        try drain(untilBelow: 0)
    }
}

/// Worker threads that run `work` on blobs (decode and map, or peek and skip); results are picked up by sequence number.
final class BlockPipeline<T> {
    private let condition = NSCondition()
    private var queue: [(Int, RawBlob)] = []
    private var queueHead = 0
    private var results: [Int: (PBFReader.BlobLocation, Result<T, Error>)] = [:]
    private var stopping = false
    private var running = 0

    init(path: String, workers: Int, work: @escaping (BlobDecoder, RawBlob) throws -> T) {
        running = workers
        for _ in 0..<workers {
            let thread = Thread { [unowned self] in
                let decoder = BlobDecoder(path: path)
                while let (sequence, blob) = self.nextJob() {
                    let result = Result { try work(decoder, blob) }
                    self.finish(sequence, PBFReader.BlobLocation(index: blob.index, offset: blob.offset), result)
                }
                self.condition.lock()
                self.running -= 1
                self.condition.broadcast()
                self.condition.unlock()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    func submit(sequence: Int, blob: RawBlob) {
        condition.lock()
        queue.append((sequence, blob))
        condition.broadcast()
        condition.unlock()
    }

    private func nextJob() -> (Int, RawBlob)? {
        condition.lock()
        defer { condition.unlock() }
        while queueHead == queue.count && !stopping { condition.wait() }
        if queueHead == queue.count { return nil }
        let job = queue[queueHead]
        queue[queueHead].1 = RawBlob(index: 0, offset: 0, kind: .data, bytes: [])
        queueHead += 1
        if queueHead > 64 && queueHead * 2 > queue.count {
            queue.removeFirst(queueHead)
            queueHead = 0
        }
        return job
    }

    private func finish(_ sequence: Int, _ location: PBFReader.BlobLocation, _ result: Result<T, Error>) {
        condition.lock()
        results[sequence] = (location, result)
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for the result of block `index` (in submission order).
    func take(index: Int) -> (PBFReader.BlobLocation, Result<T, Error>) {
        condition.lock()
        defer { condition.unlock() }
        while results[index] == nil { condition.wait() }
        return results.removeValue(forKey: index)!
    }

    /// Lets the workers finish and waits for them, so no thread outlives the read.
    func stop() {
        condition.lock()
        stopping = true
        queue.removeAll()
        queueHead = 0
        condition.broadcast()
        while running > 0 { condition.wait() }
        condition.unlock()
    }
}

import CShims
import Foundation

/// The content checks of an array read from a file, made block by block the first time a reader
/// reaches a block instead of over the whole array at open: a one-off query touches a few
/// hundred of a country's thousands of blocks, so its memory and time follow the query, not the
/// region. `check` returns the first problem of a range of elements (one block), or nil.
///
/// A block that fails is never read (its readers take their safe empty answer, see the owner's
/// docs); `problem` names the first failure, so that answers computed after it are refused.
/// Thread-safe: a block's bit is set only once its check has passed, by whichever thread made
/// it; checks run under a lock. The bits are loaded and set without ordering: the checked bytes
/// are read-only, so a reader needs the bit alone, not anything the checking thread wrote.
public final class BlockChecks: @unchecked Sendable {
    public let shift: Int
    public let count: Int
    public let blockCount: Int
    private let passedWords: UnsafeMutablePointer<UInt64>
    private let wordCount: Int
    private let check: (Range<Int>) -> String?
    private let lock = NSLock()
    private var failed = Set<Int>()
    private var firstProblem: String?

    /// Blocks of `1 << shift` of `count` elements.
    public init(count: Int, shift: Int, check: @escaping (Range<Int>) -> String?) {
        self.shift = shift
        self.count = max(0, count)
        blockCount = (self.count + (1 << shift) - 1) >> shift
        wordCount = max(1, (blockCount + 63) >> 6)
        passedWords = .allocate(capacity: wordCount)
        passedWords.initialize(repeating: 0, count: wordCount)
        self.check = check
    }

    deinit { passedWords.deallocate() }

    /// The first problem a block's check found, or nil.
    public var problem: String? {
        lock.lock()
        defer { lock.unlock() }
        return firstProblem
    }

    /// Blocks checked and passed so far (for tests and measurements).
    public var passedBlockCount: Int {
        (0..<wordCount).reduce(0) { $0 + offgrid_load_relaxed_u64(passedWords + $1).nonzeroBitCount }
    }

    /// What a reader keeps beside its arrays to ask, in its hot loop, whether an element's block
    /// passed: the bits and the shift in the reader's own value, so the usual answer (a set bit)
    /// is one load that does not go through the object; a clear bit checks the block.
    public struct Gate: @unchecked Sendable {
        public let checks: BlockChecks
        @usableFromInline let bits: UnsafePointer<UInt64>
        @usableFromInline let shift: Int

        public init(_ checks: BlockChecks) {
            self.checks = checks
            bits = UnsafePointer(checks.passedWords)
            shift = checks.shift
        }

        /// Whether element `i`'s block (`i` below `count`) passed its check, checking it on first use.
        @inlinable @inline(__always) public func passed(_ i: Int) -> Bool {
            let block = i &>> shift
            return offgrid_load_relaxed_u64(bits + (block &>> 6)) &>> UInt64(block & 63) & 1 != 0 || checks.checkBlock(block)
        }
    }

    public var gate: Gate { Gate(self) }

    /// Whether element `i`'s block passed its check, checking it on first use (`Gate.passed`).
    public func passed(_ i: Int) -> Bool { gate.passed(i) }

    /// Every block, checked now (for readers of the whole array). False if one failed.
    public func checkAll() -> Bool {
        var ok = true
        for block in 0..<blockCount where !checkBlock(block) { ok = false }
        return ok
    }

    /// Checks block `block` if no thread has yet; whether it passed.
    @inline(never) public func checkBlock(_ block: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if offgrid_load_relaxed_u64(passedWords + (block >> 6)) >> UInt64(block & 63) & 1 != 0 { return true }
        if failed.contains(block) { return false }
        let lo = block << shift
        if let problem = check(lo..<min(count, lo + (1 << shift))) {
            failed.insert(block)
            firstProblem = firstProblem ?? problem
            return false
        }
        offgrid_or_relaxed_u64(passedWords + (block >> 6), UInt64(1) << UInt64(block & 63))
        return true
    }
}

import Foundation
import OffgridCore
import TestSupport
import XCTest

final class FileSyncTests: XCTestCase {
    /// A preallocated file written in full has exactly the written bytes; on this project's file
    /// systems (ext4, tmpfs) the reservation takes effect before the first write. Zero bytes and a
    /// descriptor that is not a file (a pipe) are left alone.
    func testPreallocatedFileHoldsWhatIsWritten() throws {
        let scratch = Scratch("filesync")
        defer { scratch.remove() }
        let path = scratch.path("packed")
        let bytes = (0..<(1 << 20) + 3).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        XCTAssertGreaterThanOrEqual(fd, 0)
        FileSync.preallocate(fd, bytes: bytes.count)
        var st = stat()
        XCTAssertEqual(fstat(fd, &st), 0)
        XCTAssertEqual(Int(st.st_size), bytes.count, "the reservation extends the file before it is written")
        XCTAssertGreaterThanOrEqual(Int(st.st_blocks) * 512, bytes.count)
        XCTAssertTrue(bytes.withUnsafeBytes { FileTools.writeAll(fd, $0) })
        close(fd)
        XCTAssertEqual(try FileTools.readFile(path, maxBytes: 1 << 21), bytes)

        let empty = open(scratch.path("empty"), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        FileSync.preallocate(empty, bytes: 0)
        XCTAssertEqual(fstat(empty, &st), 0)
        XCTAssertEqual(st.st_size, 0)
        close(empty)

        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        FileSync.preallocate(ends[1], bytes: 4096)   // refused (ESPIPE), ignored
        XCTAssertEqual(write(ends[1], "ok", 2), 2)
        var back = [UInt8](repeating: 0, count: 2)
        XCTAssertEqual(read(ends[0], &back, 2), 2)
        XCTAssertEqual(back, Array("ok".utf8))
        close(ends[0])
        close(ends[1])
    }
}

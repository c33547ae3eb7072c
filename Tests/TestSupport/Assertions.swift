import OffgridCore
import TestSupport
import XCTest

/// Asserts that `body` throws an `InputError` and returns it for further checks.
@discardableResult
public func assertInputError<T>(_ body: @autoclosure () throws -> T, contains fragment: String = "",
                         file: StaticString = #filePath, line: UInt = #line) -> InputError? {
    do {
        _ = try body()
        XCTFail("expected an InputError containing \"\(fragment)\"", file: file, line: line)
        return nil
    } catch let error as InputError {
        if !fragment.isEmpty {
            XCTAssertTrue(error.description.contains(fragment),
                          "\"\(error.description)\" does not contain \"\(fragment)\"", file: file, line: line)
        }
        return error
    } catch {
        XCTFail("expected an InputError, got \(type(of: error)): \(error)", file: file, line: line)
        return nil
    }
}

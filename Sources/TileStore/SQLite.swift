import CSQLite
import Foundation
import OffgridCore

/// A small layer over the sqlite3 C API: one connection, prepared statements with positional
/// parameters, and write transactions that take SQLite's write lock up front (`BEGIN IMMEDIATE`)
/// so two processes never deadlock upgrading a read lock. Every failure is an `InputError`
/// naming the database file.
final class SQLiteDatabase {
    let path: String
    private(set) var handle: OpaquePointer?

    /// Opens an existing database (`create: false`) or creates it. A busy database is retried for
    /// `busyTimeoutMilliseconds` before an operation fails.
    init(path: String, create: Bool, busyTimeoutMilliseconds: Int32 = 60_000) throws {
        self.path = path
        var flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
        if create { flags |= SQLITE_OPEN_CREATE }
        let rc = sqlite3_open_v2(path, &handle, flags, nil)
        guard rc == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "error \(rc)"
            sqlite3_close(handle)
            handle = nil
            throw InputError(file: path, "cannot open the store index: \(message)")
        }
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit { close() }

    func close() {
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    func error(_ what: String) -> InputError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "closed"
        return InputError(file: path, "\(what): \(message)")
    }

    /// Runs one or more statements without parameters.
    func exec(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? "error"
            sqlite3_free(message)
            throw InputError(file: path, "index query failed: \(text) (\(sql.prefix(60))…)")
        }
    }

    func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw error("cannot prepare \"\(sql.prefix(60))\"")
        }
        return SQLiteStatement(db: self, statement: statement)
    }

    /// Runs a statement with parameters to completion; returns the number of changed rows.
    @discardableResult
    func run(_ sql: String, _ args: [SQLiteValue] = []) throws -> Int {
        let s = try prepare(sql)
        try s.bind(args)
        while try s.step() {}
        return Int(sqlite3_changes(handle))
    }

    /// Every row of a query, mapped.
    func rows<T>(_ sql: String, _ args: [SQLiteValue] = [], _ map: (SQLiteStatement) throws -> T) throws -> [T] {
        let s = try prepare(sql)
        try s.bind(args)
        var out: [T] = []
        while try s.step() { out.append(try map(s)) }
        return out
    }

    /// The first row of a query, mapped, or nil.
    func row<T>(_ sql: String, _ args: [SQLiteValue] = [], _ map: (SQLiteStatement) throws -> T) throws -> T? {
        let s = try prepare(sql)
        try s.bind(args)
        return try s.step() ? map(s) : nil
    }

    /// A single integer (`SELECT count(*) …`); 0 for NULL or no row.
    func int(_ sql: String, _ args: [SQLiteValue] = []) throws -> Int64 {
        try row(sql, args) { $0.int(0) } ?? 0
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE` … `COMMIT`), rolled back if it throws.
    /// With WAL and `synchronous=FULL` the commit is durable when this returns.
    func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        try exec("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try exec("COMMIT")
            return result
        } catch {
            try? exec("ROLLBACK")
            throw error
        }
    }

    /// Runs `body` in a read transaction: one consistent snapshot of the index.
    func readTransaction<T>(_ body: () throws -> T) throws -> T {
        try exec("BEGIN")
        defer { try? exec("COMMIT") }
        return try body()
    }
}

/// A bound parameter.
enum SQLiteValue {
    case int(Int64)
    case double(Double)
    case text(String)
    case null

    static func int(_ v: Int) -> SQLiteValue { .int(Int64(v)) }
    static func optionalInt(_ v: Int64?) -> SQLiteValue { v.map { .int($0) } ?? .null }
    static func optionalText(_ v: String?) -> SQLiteValue { v.map { .text($0) } ?? .null }
}

/// SQLite copies bound text before `bind` returns.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

final class SQLiteStatement {
    private let db: SQLiteDatabase
    private let statement: OpaquePointer

    init(db: SQLiteDatabase, statement: OpaquePointer) {
        self.db = db
        self.statement = statement
    }

    deinit { sqlite3_finalize(statement) }

    func bind(_ args: [SQLiteValue]) throws {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        for (i, value) in args.enumerated() {
            let index = Int32(i + 1)
            let rc: Int32
            switch value {
            case .int(let v): rc = sqlite3_bind_int64(statement, index, v)
            case .double(let v): rc = sqlite3_bind_double(statement, index, v)
            case .text(let v): rc = sqlite3_bind_text(statement, index, v, -1, sqliteTransient)
            case .null: rc = sqlite3_bind_null(statement, index)
            }
            guard rc == SQLITE_OK else { throw db.error("cannot bind parameter \(index)") }
        }
    }

    /// Advances to the next row; false when done.
    func step() throws -> Bool {
        let rc = sqlite3_step(statement)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw db.error("index query failed")
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
    func int(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
    func optionalInt(_ column: Int32) -> Int64? { isNull(column) ? nil : int(column) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
    func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }
    func text(_ column: Int32) -> String {
        guard let p = sqlite3_column_text(statement, column) else { return "" }
        return String(cString: p)
    }
    func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }
}

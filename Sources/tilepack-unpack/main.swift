import OffgridCore
import ToolSupport

// Exit codes: 0 success, 1 bad input (one line on stderr), 2 usage error.
ToolMain.run(Unpack.self)

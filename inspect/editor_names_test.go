package inspect

import "github.com/scenecs/scenecs/editor"

// The names the tests give the editor's answers and events, whose JSON
// is the API's.
type (
	sentEvent    = editor.Sent
	historyList  = editor.History
	historyEvent = editor.HistoryEvent
	stepAnswer   = editor.Step
)

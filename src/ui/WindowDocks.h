#pragma once

class QDockWidget;
class QMainWindow;

namespace keylens::ui {

class ConsoleView;
class FindingsPanel;

// The window's two docks, both at the bottom; each one's toggle (its toggleViewAction) is named and has its shortcut,
// for the View menu.
//
// The Console (Ctrl+`), hidden at first: shown, it takes room to read replies (a third of the window's height below,
// half its width at a side; a dock first shows at its smallest) and the input takes the focus.
QDockWidget* addConsoleDock(QMainWindow& window, ConsoleView* console);
// The Findings panel (Ctrl+Shift+F; Ctrl+L goes to a key).
QDockWidget* addFindingsDock(QMainWindow& window, FindingsPanel* findings);

} // namespace keylens::ui

#pragma once

#include "keyspace/KeyFilter.h"

#include <QTimer>
#include <QWidget>

class QActionGroup;
class QCompleter;
class QLabel;
class QLineEdit;
class QStringListModel;
class QToolButton;

namespace keylens::models {
class KeyspaceView;
}

namespace keylens::ui {

// The filter above the key tree: one line that filters by prefix or glob, or goes to a key when its text is
// one (keyspace::FilterMode), with the mode that applies shown beside it and a menu to choose another, a
// visible case toggle (off: `user:*` does not match `User:1`, as SCAN MATCH), the number of matches, and
// key names completed segment by segment from the store. It sits in the window, not in the toolbar, so
// that it stays visible and reachable (Ctrl+F) at any width.
class KeyFilterBar : public QWidget
{
    Q_OBJECT
public:
    // `keyspace`: the session's store, which decides which texts are keys and completes them.
    explicit KeyFilterBar(const models::KeyspaceView& keyspace, QWidget* parent = nullptr);

    // The filter the text stands for now.
    keyspace::KeyFilter filter() const;
    QString text() const;
    void setText(const QString& text); // applies at once
    void setMode(keyspace::FilterMode mode);
    void setIgnoreCase(bool ignore);
    bool ignoresCase() const;
    // "12 matching keys", or nothing.
    void setInfo(const QString& info);
    QString info() const;
    // Ctrl+F: the text selected, the mode as chosen (auto again after a Ctrl+L). Ctrl+L: the same, in exact mode
    // for that go-to (go to a key).
    void focusToFilter();
    void focusToGoTo();
    // No text, auto mode: what a new connection starts with, so that nothing of the last server's filter hides keys.
    void reset();

    QLineEdit* edit() const { return m_edit; }
    QToolButton* modeButton() const { return m_modeButton; }
    QToolButton* caseButton() const { return m_caseButton; }
    QCompleter* completer() const { return m_completer; }

Q_SIGNALS:
    // The text, mode or case changed (typing is debounced; Enter applies at once).
    void filterChanged();

private:
    void showMode();
    void complete(const QString& text);

    const models::KeyspaceView& m_keyspace;
    keyspace::FilterMode m_mode = keyspace::FilterMode::Auto;
    bool m_exactForGoTo = false; // exact mode came from Ctrl+L, not from the menu
    QLineEdit* m_edit;
    QToolButton* m_modeButton;
    QActionGroup* m_modes;
    QToolButton* m_caseButton;
    QLabel* m_info;
    QCompleter* m_completer;
    QStringListModel* m_completions;
    QTimer m_debounce;
};

} // namespace keylens::ui

#pragma once

#include "keyspace/Delimiters.h"
#include "lint/DelimiterUse.h"

#include <QFrame>

#include <vector>

class QLabel;
class QPushButton;

namespace keylens::ui {

// After a scan, the other delimiters many keys use (`2,551 keys also use '/'`), with a button that scans again
// split on the most used one too. Dismissed, it stays away until another target is scanned.
class DelimiterSuggestionBar : public QFrame
{
    Q_OBJECT

public:
    explicit DelimiterSuggestionBar(QWidget* parent = nullptr);

    // Shows the most used of `uses` (hidden when there is none, or after dismiss() for the same target).
    void suggest(const std::vector<lint::DelimiterUse>& uses, const keyspace::Delimiters& current);
    // Another target: a dismissal no longer holds.
    void reset();

Q_SIGNALS:
    void splitRequested(const keyspace::Delimiters& delimiters);

private:
    QLabel* m_text;
    QPushButton* m_split;
    keyspace::Delimiters m_offered;
    bool m_dismissed = false;
};

} // namespace keylens::ui

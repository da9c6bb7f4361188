#include "ui/DelimiterSuggestionBar.h"

#include "keyspace/KeyEscape.h"
#include "keyspace/Units.h"
#include "models/DisplayText.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>

namespace keylens::ui {

using models::displayText;

namespace {

// What a key becomes split on `delimiters`: its levels, `users › 104 › avatar_url` (its first 120 bytes).
QString splitPreview(const QByteArray& key, const keyspace::Delimiters& delimiters)
{
    QStringList levels;
    QByteArray level;
    for (const char c : key.left(120)) {
        if (delimiters.contains(c)) {
            levels << displayText(keyspace::displayBytes(level)).toHtmlEscaped();
            level.clear();
        } else {
            level += c;
        }
    }
    levels << displayText(keyspace::displayBytes(level)).toHtmlEscaped() +
                  (key.size() > 120 ? QStringLiteral("…") : QString());
    return levels.join(QStringLiteral(" › "));
}

} // namespace

DelimiterSuggestionBar::DelimiterSuggestionBar(QWidget* parent)
    : QFrame(parent)
    , m_text(new QLabel)
    , m_split(new QPushButton)
{
    setObjectName(QStringLiteral("delimiterSuggestion"));
    setStyleSheet(QStringLiteral("#delimiterSuggestion { background: rgba(66, 133, 214, 0.14); border-radius: 4px; }"));
    m_text->setWordWrap(true);
    auto* close = new QToolButton;
    close->setText(QStringLiteral("×"));
    close->setAutoRaise(true);
    close->setToolTip(tr("Keep the delimiters as they are"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_split);
    layout->addWidget(close);
    connect(m_split, &QPushButton::clicked, this, [this] {
        hide();
        Q_EMIT splitRequested(m_offered);
    });
    connect(close, &QToolButton::clicked, this, [this] {
        m_dismissed = true;
        hide();
    });
    hide();
}

void DelimiterSuggestionBar::suggest(const std::vector<lint::DelimiterUse>& uses, const keyspace::Delimiters& current)
{
    if (uses.empty() || m_dismissed) {
        hide();
        return;
    }
    const lint::DelimiterUse& most = uses.front();
    m_offered = current.with(most.delimiter);
    const QString shown = QString::fromLatin1(&most.delimiter, 1);
    // What the split does, before it is asked for: one of those keys as it is now and as it would be.
    m_text->setText(tr("%1 keys also use <b>%2</b> between words and ids: split on it too, %3 becomes %4.")
                        .arg(displayText(keyspace::formatCount(most.keys)), shown.toHtmlEscaped(),
                             splitPreview(most.example, current), splitPreview(most.example, m_offered)));
    m_split->setText(tr("Split on '%1' too").arg(shown));
    m_split->setToolTip(tr("Scan again with the delimiters %1").arg(QString::fromLatin1(m_offered.text())));
    show();
}

void DelimiterSuggestionBar::reset()
{
    m_dismissed = false;
    hide();
}

} // namespace keylens::ui

#include "ui/LiveBar.h"

#include "models/LiveSession.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QToolButton>

#include <cmath>

namespace keylens::ui {

using models::LiveSession;

LiveBar::LiveBar(LiveSession* live, QWidget* parent)
    : QFrame(parent)
    , m_live(live)
    , m_text(new QLabel)
    , m_turnOn(new QPushButton(tr("Turn on")))
    , m_turnOnAndKeep(new QPushButton(tr("Turn on and keep")))
    , m_rescan(new QPushButton(tr("Rescan")))
    , m_close(new QToolButton)
{
    setObjectName(QStringLiteral("liveBar"));
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::RichText);
    m_close->setText(QStringLiteral("×"));
    m_close->setAutoRaise(true);
    m_close->setToolTip(tr("Hide this until the live view's state changes"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    layout->addWidget(m_text, 1);
    for (QWidget* button : {static_cast<QWidget*>(m_turnOn), static_cast<QWidget*>(m_turnOnAndKeep),
                            static_cast<QWidget*>(m_rescan), static_cast<QWidget*>(m_close)})
        layout->addWidget(button);
    connect(m_turnOn, &QPushButton::clicked, this, [this] { m_live->turnOnNotifications(false); });
    connect(m_turnOnAndKeep, &QPushButton::clicked, this, [this] { m_live->turnOnNotifications(true); });
    connect(m_rescan, &QPushButton::clicked, this, &LiveBar::rescanRequested);
    connect(m_close, &QToolButton::clicked, this, [this] {
        m_dismissed = true;
        hide();
    });
    connect(live, &LiveSession::stateChanged, this, [this] {
        m_dismissed = false;
        if (m_live->state() == LiveSession::State::Following)
            m_followingSince = QTime::currentTime();
        if (m_live->state() == LiveSession::State::Behind)
            m_behindSince = QTime::currentTime();
        refresh();
    });
    connect(live, &LiveSession::ratesChanged, this, &LiveBar::refresh);
    hide();
}

void LiveBar::setReadOnly(bool readOnly)
{
    m_readOnly = readOnly;
    refresh();
}

void LiveBar::setTone(const char* background)
{
    setStyleSheet(QStringLiteral("#liveBar { background: %1; border-radius: 4px; }").arg(QLatin1String(background)));
}

void LiveBar::refresh()
{
    using State = LiveSession::State;
    const State state = m_live->state();
    m_turnOn->setVisible(false);
    m_turnOnAndKeep->setVisible(false);
    m_rescan->setVisible(false);
    const QString why = m_live->why().toHtmlEscaped();
    switch (state) {
    case State::Off:
        hide();
        return;
    case State::Starting:
        setTone("rgba(66, 133, 214, 0.10)");
        m_text->setText(tr("Live: subscribing to the server's key events…"));
        break;
    case State::Following: {
        setTone("rgba(76, 175, 80, 0.14)");
        const double rate = m_live->totalWritesPerSecond();
        const QString rateText =
            rate < 10 ? QLocale().toString(rate, 'f', 1) : QLocale().toString(qlonglong(std::llround(rate)));
        QString text = tr("<b>Live</b> since %1: keys written, deleted, expired and evicted on the server follow "
                          "in the tree · %2 writes/s in the last minute")
                           .arg(QLocale().toString(m_followingSince, QLocale::ShortFormat), rateText);
        if (m_live->keysWaiting() > 0)
            text += tr(" · %L1 keys being measured").arg(m_live->keysWaiting());
        if (m_live->followsFromNow())
            text += tr(". Changes made between the scan and then are not in it: a rescan brings them");
        if (!why.isEmpty())
            text += QStringLiteral(". ") + why.left(1).toUpper() + why.mid(1);
        m_text->setText(text);
        break;
    }
    case State::NeedsNotifications: {
        setTone("rgba(230, 160, 40, 0.18)");
        const QString flags = m_live->notifications() ? QString::fromLatin1(m_live->notifications()->flags) : QString();
        const QString missing =
            m_live->notifications() ? QString::fromLatin1(m_live->notifications()->missing()) : QString();
        QString text = tr("<b>The server does not publish key events</b> (notify-keyspace-events is '%1'; missing: "
                          "%2), so the tree cannot follow it.")
                           .arg(flags.toHtmlEscaped(), missing.toHtmlEscaped());
        if (!why.isEmpty())
            text += QStringLiteral(" ") + why.left(1).toUpper() + why.mid(1) + QLatin1Char('.');
        if (m_readOnly) {
            text += tr(" This connection is read-only: Keylens will not change the server's settings.");
        } else {
            text += tr(" Keylens can turn them on, and puts the setting back when it leaves this server.");
            const QString set =
                m_live->notifications() ? QString::fromLatin1(m_live->notifications()->withKeyEvents()) : QString();
            m_turnOn->setToolTip(tr("CONFIG SET notify-keyspace-events %1, put back to '%2' when Keylens leaves this "
                                    "server. The server then publishes a message per write: a little more work.")
                                     .arg(set, flags));
            m_turnOnAndKeep->setToolTip(tr("CONFIG SET notify-keyspace-events %1, and leave it so").arg(set));
            m_turnOn->setVisible(true);
            m_turnOnAndKeep->setVisible(true);
        }
        m_text->setText(text);
        break;
    }
    case State::Unavailable:
        setTone("rgba(66, 133, 214, 0.10)");
        m_text->setText(tr("The tree cannot follow the server live: %1.").arg(why));
        break;
    case State::Behind:
        setTone("rgba(214, 69, 69, 0.18)");
        m_text->setText(tr("<b>The live view is behind the server</b>: %1. The tree shows what it knew at %2; a "
                           "rescan brings it up to date.")
                            .arg(why, QLocale().toString(m_behindSince, QLocale::ShortFormat)));
        m_rescan->setVisible(true);
        break;
    }
    setVisible(!m_dismissed);
}

} // namespace keylens::ui

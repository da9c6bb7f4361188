#include "ui/KeyFilterBar.h"

#include "models/FilterQueries.h"
#include "models/KeyspaceView.h"

#include <QActionGroup>
#include <QCompleter>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QStringListModel>
#include <QToolButton>

namespace keylens::ui {

using keyspace::FilterMode;

namespace {

// Completions offered for one segment: the popup is for picking, not for browsing a million ids.
constexpr int MaxCompletions = 200;

} // namespace

KeyFilterBar::KeyFilterBar(const models::KeyspaceView& keyspace, QWidget* parent)
    : QWidget(parent)
    , m_keyspace(keyspace)
    , m_edit(new QLineEdit)
    , m_modeButton(new QToolButton)
    , m_modes(new QActionGroup(this))
    , m_caseButton(new QToolButton)
    , m_info(new QLabel)
    , m_completer(new QCompleter(this))
    , m_completions(new QStringListModel(this))
{
    m_edit->setObjectName(QStringLiteral("key filter"));
    m_edit->setPlaceholderText(tr("Filter by prefix or glob, or go to a key (Ctrl+F, Ctrl+L)"));
    m_edit->setClearButtonEnabled(true);
    m_edit->setMinimumWidth(120);
    // The count gives way before the box does: a narrow window keeps the box, not the sentence.
    m_info->setMinimumWidth(1);

    // The mode that applies, always in view; the menu chooses another.
    auto* menu = new QMenu(this);
    const auto addMode = [&](FilterMode mode, const QString& text, const QString& tip) {
        QAction* action = menu->addAction(text);
        action->setCheckable(true);
        action->setChecked(mode == m_mode);
        action->setToolTip(tip);
        action->setData(int(mode));
        m_modes->addAction(action);
    };
    addMode(FilterMode::Auto, tr("Auto"),
            tr("An existing key goes to that key; text with * ? [ is a glob; anything else a prefix"));
    addMode(FilterMode::Exact, tr("Exact key"), tr("Only the key with this very name"));
    addMode(FilterMode::Prefix, tr("Prefix"), tr("Keys that start with the text"));
    addMode(FilterMode::Glob, tr("Glob"), tr("* ? [a-z] and \\ as SCAN MATCH reads them"));
    connect(m_modes, &QActionGroup::triggered, this,
            [this](QAction* action) { setMode(FilterMode(action->data().toInt())); });
    m_modeButton->setMenu(menu);
    m_modeButton->setPopupMode(QToolButton::InstantPopup);
    m_modeButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_modeButton->setToolTip(tr("How the text matches keys: click to choose"));

    m_caseButton->setText(tr("Aa"));
    m_caseButton->setCheckable(true);
    m_caseButton->setToolTip(tr("Ignore case. Off: user:* does not match User:1, as SCAN MATCH"));
    connect(m_caseButton, &QToolButton::toggled, this, [this] {
        showMode();
        Q_EMIT filterChanged();
    });

    m_completer->setModel(m_completions);
    m_completer->setCompletionMode(QCompleter::PopupCompletion);
    m_completer->setCaseSensitivity(Qt::CaseSensitive);
    m_completer->setMaxVisibleItems(12);
    m_edit->setCompleter(m_completer);
    connect(m_edit, &QLineEdit::textEdited, this, &KeyFilterBar::complete);

    m_debounce.setSingleShot(true);
    m_debounce.setInterval(250);
    connect(&m_debounce, &QTimer::timeout, this, &KeyFilterBar::filterChanged);
    connect(m_edit, &QLineEdit::textChanged, this, [this] {
        showMode();
        m_debounce.start();
    });
    connect(m_edit, &QLineEdit::returnPressed, this, [this] {
        m_debounce.stop();
        Q_EMIT filterChanged();
    });

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 2);
    layout->setSpacing(4);
    layout->addWidget(m_modeButton);
    layout->addWidget(m_edit, 1);
    layout->addWidget(m_caseButton);
    layout->addWidget(m_info);
    showMode();
    // Another store: other names to complete, and the text may name a key or not any more.
    connect(&keyspace, &models::KeyspaceView::storeReplaced, this, [this] {
        m_completions->setStringList({});
        showMode();
    });
}

keyspace::KeyFilter KeyFilterBar::filter() const
{
    return models::resolveFilter(m_keyspace, m_edit->text().toUtf8(), m_mode,
                                 ignoresCase() ? keyspace::KeyGlob::Case::Insensitive
                                               : keyspace::KeyGlob::Case::Sensitive);
}

QString KeyFilterBar::text() const
{
    return m_edit->text();
}

void KeyFilterBar::setText(const QString& text)
{
    m_edit->setText(text);
    m_debounce.stop();
    Q_EMIT filterChanged();
}

void KeyFilterBar::setMode(FilterMode mode)
{
    m_exactForGoTo = false; // chosen: it stays
    m_mode = mode;
    for (QAction* action : m_modes->actions())
        action->setChecked(FilterMode(action->data().toInt()) == mode);
    showMode();
    m_debounce.stop();
    Q_EMIT filterChanged();
}

void KeyFilterBar::setIgnoreCase(bool ignore)
{
    m_caseButton->setChecked(ignore);
}

bool KeyFilterBar::ignoresCase() const
{
    return m_caseButton->isChecked();
}

void KeyFilterBar::setInfo(const QString& info)
{
    m_info->setText(info);
}

QString KeyFilterBar::info() const
{
    return m_info->text();
}

void KeyFilterBar::focusToFilter()
{
    // Ctrl+L's exact mode was for one go-to: a later Ctrl+F filters again as auto does, or it would find nothing.
    if (m_exactForGoTo) {
        m_exactForGoTo = false;
        setMode(FilterMode::Auto);
    }
    m_edit->setFocus(Qt::ShortcutFocusReason);
    m_edit->selectAll();
}

void KeyFilterBar::focusToGoTo()
{
    if (m_mode != FilterMode::Exact) {
        setMode(FilterMode::Exact);
        m_exactForGoTo = true;
    }
    m_edit->setFocus(Qt::ShortcutFocusReason);
    m_edit->selectAll();
}

void KeyFilterBar::reset()
{
    m_exactForGoTo = false;
    m_edit->clear();
    setMode(FilterMode::Auto);
}

void KeyFilterBar::showMode()
{
    // What applies to the text as it stands: Auto says which of the three it chose.
    const QString name = QString::fromLatin1(keyspace::filterModeName(filter().mode));
    m_modeButton->setText(m_mode == FilterMode::Auto ? name + tr(" (auto)") : name);
}

void KeyFilterBar::complete(const QString& text)
{
    const QStringList names = models::keyCompletions(m_keyspace, text.toUtf8(), MaxCompletions);
    m_completions->setStringList(names);
    m_completer->setCompletionPrefix(text);
    if (!names.isEmpty() && m_edit->hasFocus())
        m_completer->complete();
}

} // namespace keylens::ui

#include "ui/WindowDocks.h"

#include "ui/ConsoleView.h"
#include "ui/FindingsPanel.h"

#include <QAction>
#include <QCoreApplication>
#include <QDockWidget>
#include <QLineEdit>
#include <QMainWindow>

namespace keylens::ui {

QDockWidget* addConsoleDock(QMainWindow& window, ConsoleView* console)
{
    auto* dock = new QDockWidget(QCoreApplication::translate("keylens::ui::WindowDocks", "Console"), &window);
    dock->setObjectName(QStringLiteral("console"));
    dock->setWidget(console);
    window.addDockWidget(Qt::BottomDockWidgetArea, dock);
    dock->hide();
    QAction* toggle = dock->toggleViewAction();
    toggle->setText(QCoreApplication::translate("keylens::ui::WindowDocks", "C&onsole"));
    toggle->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_QuoteLeft));
    QObject::connect(toggle, &QAction::toggled, dock, [&window, dock, console](bool shown) {
        if (!shown)
            return;
        dock->show(); // toggled comes before the dock's own slot shows it; raise() below needs it shown
        const Qt::DockWidgetArea area = window.dockWidgetArea(dock);
        const bool below = area == Qt::BottomDockWidgetArea || area == Qt::TopDockWidgetArea;
        // Beside the Findings panel it opened a quarter of the window wide (225 px at 900): tabbed with it, it has
        // the whole width, as its long lines need.
        auto* findings = window.findChild<QDockWidget*>(QStringLiteral("findingsDock"));
        if (below && !dock->isFloating() && findings && findings->isVisible() && !findings->isFloating() &&
            window.dockWidgetArea(findings) == area && window.tabifiedDockWidgets(dock).isEmpty() &&
            dock->width() < window.width() / 2) {
            window.tabifyDockWidget(findings, dock);
            dock->raise();
        }
        if (!dock->isFloating() && below && dock->height() < window.height() / 3)
            window.resizeDocks({dock}, {window.height() / 3}, Qt::Vertical);
        else if (!dock->isFloating() && !below && dock->width() < window.width() / 2)
            window.resizeDocks({dock}, {window.width() / 2}, Qt::Horizontal);
        console->input()->setFocus();
    });
    return dock;
}

QDockWidget* addFindingsDock(QMainWindow& window, FindingsPanel* findings)
{
    auto* dock = new QDockWidget(QCoreApplication::translate("keylens::ui::WindowDocks", "Findings"), &window);
    dock->setObjectName(QStringLiteral("findingsDock"));
    dock->setWidget(findings);
    dock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable |
                      QDockWidget::DockWidgetFloatable);
    window.addDockWidget(Qt::BottomDockWidgetArea, dock);
    QAction* toggle = dock->toggleViewAction();
    toggle->setText(QCoreApplication::translate("keylens::ui::WindowDocks", "&Findings panel"));
    toggle->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    return dock;
}

} // namespace keylens::ui

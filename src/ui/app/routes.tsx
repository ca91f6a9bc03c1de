/** The studio's routes (docs/product/screens.md). Unknown paths go to /. */
import { type ComponentType, type ReactNode, Suspense } from 'react';
import { Redirect, Route, Switch, useLocation, useSearch } from 'wouter';
import { homePath } from '../../services/startPage';
import { NotAllowedScreen as NotAllowedPage } from '../screens/notAllowed/NotAllowedScreen';
import { PublicOnly, PublicOrFinishingSignup, RequireAuth, RequirePermission } from './guards';
import { LoadingBar } from './LoadingBar';
import { ScreenErrorBoundary } from './ScreenErrorBoundary';
import { Layouts, Screens } from './screens';
import { useActiveAccount } from './useAccounts';

/** A screen inside its error boundary, with the loading bar while its chunk loads. */
export function ScreenSlot({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  return (
    <ScreenErrorBoundary resetKey={location}>
      <Suspense fallback={<LoadingBar />}>{children}</Suspense>
    </ScreenErrorBoundary>
  );
}

const publicScreen = (Screen: ComponentType) => (
  <PublicOnly>
    <ScreenSlot>
      <Screen />
    </ScreenSlot>
  </PublicOnly>
);

const mainScreen = (Screen: ComponentType) => (
  <ScreenSlot>
    <Screen />
  </ScreenSlot>
);

/** Printable pages: signed in and allowed, without the shell. */
const bareScreen = (Screen: ComponentType) => (
  <RequireAuth>
    <RequirePermission>
      <ScreenSlot>
        <Screen />
      </ScreenSlot>
    </RequirePermission>
  </RequireAuth>
);

function Index() {
  const search = useSearch();
  const account = useActiveAccount();
  // The payment provider returns to the root path with a session_id query: forward it to /return.
  if (new URLSearchParams(search).has('session_id')) return <Redirect to={`/return?${search}`} replace />;
  // A reviewer whose start page is the desk opens it; replace, so Back does not bounce through `/`.
  const home = account ? homePath(account) : '/';
  if (home !== '/') return <Redirect to={home} replace />;
  return mainScreen(Screens.Customers);
}

/**
 * Every signed-in route of the shell, under ONE main layout element: the layout holds the socket and
 * the call desk, so it must stay mounted whatever route comes next. When each route built its own layout, a
 * move between a flat route and a nested one (/profile/:id, /entity/:id, whose layout sits one Router deeper)
 * mounted a new layout: a new socket, and the call in progress thrown away.
 */
function Studio() {
  return (
    <RequireAuth>
      <ScreenSlot>
        <Layouts.Main>
          <RequirePermission>
            <StudioRoutes />
          </RequirePermission>
        </Layouts.Main>
      </ScreenSlot>
    </RequireAuth>
  );
}

function StudioRoutes() {
  return (
    <Switch>
      <Route path="/">
        <Index />
      </Route>
      <Route path="/customers">{mainScreen(Screens.Customers)}</Route>
      <Route path="/review">{mainScreen(Screens.Review)}</Route>
      <Route path="/reports">
        <Redirect to="/landing" replace />
      </Route>
      <Route path="/settings">{mainScreen(Screens.Settings)}</Route>
      <Route path="/company-settings">{mainScreen(Screens.CompanySettings)}</Route>
      <Route path="/return">{mainScreen(Screens.Return)}</Route>
      <Route path="/admin">{mainScreen(Screens.Admin)}</Route>
      <Route path="/entities">{mainScreen(Screens.Entities)}</Route>
      <Route path="/calls">{mainScreen(Screens.Calls)}</Route>
      <Route path="/call/:customerID/:roomID/:callID">{mainScreen(Screens.Call)}</Route>
      <Route path="/watch">{mainScreen(Screens.Watch)}</Route>
      <Route path="/landing">{mainScreen(Screens.Landing)}</Route>
      <Route path="/dashboard">{mainScreen(Screens.Dashboard)}</Route>
      <Route path="/smart-modules">{mainScreen(Screens.SmartModules)}</Route>
      <Route path="/swagger-documentation">{mainScreen(Screens.Swagger)}</Route>
      <Route path="/not-allowed">{mainScreen(NotAllowedPage)}</Route>

      <Route path="/profile/:profileID" nest>
        <Layouts.Profile>
          <ScreenSlot>
            <Switch>
              <Route path="/" component={Screens.Profile} />
              <Route path="/document/:docID" component={Screens.Document} />
              <Route path="/video/:videoID" component={Screens.Video} />
              <Route path="/amlHistory" component={Screens.AmlHistory} />
              <Route path="/amlRecordDetail/:checkID" component={Screens.AmlRecordDetail} />
              <Route>
                <Redirect to="~/" replace />
              </Route>
            </Switch>
          </ScreenSlot>
        </Layouts.Profile>
      </Route>

      <Route path="/entity/:id" nest>
        <Layouts.Entity>
          <ScreenSlot>
            <Switch>
              <Route path="/" component={Screens.Entity} />
              <Route path="/documents" component={Screens.EntityDocuments} />
              <Route>
                <Redirect to="~/" replace />
              </Route>
            </Switch>
          </ScreenSlot>
        </Layouts.Entity>
      </Route>

      <Route>
        <Redirect to="/" replace />
      </Route>
    </Switch>
  );
}

export function AppRoutes() {
  return (
    <Switch>
      <Route path="/login">{publicScreen(Screens.Login)}</Route>
      <Route path="/reset-password">{publicScreen(Screens.ResetPassword)}</Route>
      <Route path="/create-account">
        <PublicOrFinishingSignup>
          <ScreenSlot>
            <Screens.CreateAccount />
          </ScreenSlot>
        </PublicOrFinishingSignup>
      </Route>
      <Route path="/pdf-basic/:id">{bareScreen(Screens.PdfBasic)}</Route>
      <Route path="/pdf-expand/:id">{bareScreen(Screens.PdfExpand)}</Route>
      <Route>
        <Studio />
      </Route>
    </Switch>
  );
}

import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { useSession } from './auth/api';
import { Layout } from './components/Layout';
import { Loading } from './components/States';
import { SignIn, SignUp } from './auth/Auth';
import { NotFound } from './components/NotFound';

const pages = {
  home: () => import('./home/Home'),
  recipes: () => import('./recipes/Recipes'),
  recipe: () => import('./recipes/RecipeEditor'),
  sessions: () => import('./sessions/Sessions'),
  session: () => import('./sessions/Session'),
  inventory: () => import('./inventory/Inventory'),
  shoppingList: () => import('./stock/ShoppingList'),
  ingredients: () => import('./catalog/Ingredients'),
  equipment: () => import('./equipment/Equipment'),
  equipmentProfile: () => import('./equipment/EquipmentProfile'),
  devices: () => import('./devices/Devices'),
  device: () => import('./devices/Device'),
  webhooks: () => import('./webhooks/Webhooks'),
  webhook: () => import('./webhooks/Webhook'),
  mqtt: () => import('./mqtt/Mqtt'),
  alerts: () => import('./alerts/Alerts'),
  alertRules: () => import('./alerts/Rules'),
  assistant: () => import('./assistant/Assistant'),
  account: () => import('./account/Account'),
  tools: () => import('./tools/Tools'),
  // `/copy/<token>`: a shared recipe's "Copy to my recipes".
  copy: () => import('./recipes/history/CopyShared'),
};
const Home = lazy(pages.home);
const Recipes = lazy(pages.recipes);
const RecipeEditor = lazy(pages.recipe);
const Sessions = lazy(pages.sessions);
const SessionPage = lazy(pages.session);
const Inventory = lazy(pages.inventory);
const ShoppingList = lazy(pages.shoppingList);
const Ingredients = lazy(pages.ingredients);
const Equipment = lazy(pages.equipment);
const EquipmentProfile = lazy(pages.equipmentProfile);
const Devices = lazy(pages.devices);
const DevicePage = lazy(pages.device);
const Webhooks = lazy(pages.webhooks);
const WebhookPage = lazy(pages.webhook);
const Mqtt = lazy(pages.mqtt);
const Alerts = lazy(pages.alerts);
const AlertRules = lazy(pages.alertRules);
const Assistant = lazy(pages.assistant);
const Account = lazy(pages.account);
const Tools = lazy(pages.tools);
const CopyShared = lazy(pages.copy);

/** Starts loading the first page's code at once, beside the session check (no waterfall). */
export function preloadPage(path: string) {
  const [, first, second] = path.split('/');
  // A list and its item pages: `/recipes` and `/recipes/<id>` load different code.
  const items: Record<string, [keyof typeof pages, keyof typeof pages]> = {
    recipes: ['recipes', 'recipe'],
    sessions: ['sessions', 'session'],
    equipment: ['equipment', 'equipmentProfile'],
    devices: ['devices', 'device'],
    webhooks: ['webhooks', 'webhook'],
    alerts: ['alerts', 'alertRules'],
  };
  const pair = first ? items[first] : undefined;
  const load = !first ? pages.home : pair ? pages[second ? pair[1] : pair[0]] : first in pages ? pages[first as keyof typeof pages] : null;
  void load?.().catch(() => undefined);
}

function RequireAuth({ children }: { children: React.ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <Loading what="your session" />;
  if (!session.data) {
    const next = location.pathname + location.search;
    return <Navigate to={`/signin?next=${encodeURIComponent(next)}`} replace />;
  }
  return <Layout user={session.data.user}>{children}</Layout>;
}

function page(el: React.ReactNode) {
  return (
    <RequireAuth>
      <Suspense fallback={<Loading what="the page" />}>{el}</Suspense>
    </RequireAuth>
  );
}

export function App() {
  return (
    <Routes>
      <Route path="/signin" element={<SignIn />} />
      <Route path="/signup" element={<SignUp />} />
      <Route path="/" element={page(<Home />)} />
      <Route path="/recipes" element={page(<Recipes />)} />
      <Route path="/recipes/:id" element={page(<RecipeEditor />)} />
      <Route path="/sessions" element={page(<Sessions />)} />
      <Route path="/sessions/:id" element={page(<SessionPage />)} />
      <Route path="/inventory" element={page(<Inventory />)} />
      <Route path="/shopping-list" element={page(<ShoppingList />)} />
      <Route path="/ingredients" element={page(<Ingredients />)} />
      <Route path="/equipment" element={page(<Equipment />)} />
      <Route path="/equipment/:id" element={page(<EquipmentProfile />)} />
      <Route path="/devices" element={page(<Devices />)} />
      <Route path="/devices/:id" element={page(<DevicePage />)} />
      <Route path="/webhooks" element={page(<Webhooks />)} />
      <Route path="/webhooks/:id" element={page(<WebhookPage />)} />
      <Route path="/mqtt" element={page(<Mqtt />)} />
      <Route path="/alerts" element={page(<Alerts />)} />
      <Route path="/alerts/rules" element={page(<AlertRules />)} />
      <Route path="/assistant" element={page(<Assistant />)} />
      <Route path="/assistant/:chatId" element={page(<Assistant />)} />
      <Route path="/account" element={page(<Account />)} />
      <Route path="/tools" element={page(<Tools />)} />
      <Route path="/copy/:token" element={page(<CopyShared />)} />
      <Route path="*" element={page(<NotFound />)} />
    </Routes>
  );
}

import { useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError, errorText } from '../api/client';
import { TextField } from '../components/Field';
import { safeNext } from './session';
import { useEnter, useSession } from './api';

function AuthForm({ mode }: { mode: 'signin' | 'signup' }) {
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const navigate = useNavigate();
  const enter = useEnter();
  const session = useSession();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  if (session.data) return <Navigate to={next} replace />;

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await enter(mode, { name, email, password });
      navigate(next, { replace: true });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const api = error instanceof ApiError ? error : null;
  const fields = ['name', 'email', 'password'];
  const formError = error ? (api && api.details.length ? api.rest(fields) : errorText(error)) : null;
  const other = mode === 'signin' ? ['/signup', 'Create an account', 'New here?'] : ['/signin', 'Sign in', 'Have an account?'];
  const title = mode === 'signin' ? 'Sign in' : 'Sign up';
  return (
    <main id="main" className="auth">
      <div className="auth-card">
        <p className="brand big" aria-hidden="true">
          <span className="logo">◉</span> wort
        </p>
        <h1>{title}</h1>
        <p className="muted">Recipes, brew days and fermentation, in one place.</p>
        <form onSubmit={submit} noValidate>
          {mode === 'signup' && (
            <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} autoComplete="name" error={api?.at('name')} required />
          )}
          <TextField
            label="Email"
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            autoComplete="email"
            error={api?.at('email')}
            required
          />
          <TextField
            label="Password"
            type="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete={mode === 'signin' ? 'current-password' : 'new-password'}
            error={api?.at('password')}
            hint={mode === 'signup' ? 'At least 8 characters.' : undefined}
            required
          />
          {formError && (
            <p className="form-error" role="alert">
              {formError}
            </p>
          )}
          <button type="submit" className="primary wide" disabled={busy}>
            {title}
          </button>
        </form>
        <p>
          {other[2]} <Link to={`${other[0]}${params.get('next') ? `?next=${encodeURIComponent(next)}` : ''}`}>{other[1]}</Link>
        </p>
      </div>
    </main>
  );
}

export function SignIn() {
  return <AuthForm mode="signin" />;
}

export function SignUp() {
  return <AuthForm mode="signup" />;
}

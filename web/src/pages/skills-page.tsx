import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client.js';
import { Empty, ErrorNote, Loading, Ltr, PageTitle, StatusBadge } from '../components/ui.js';
import { usePreferences } from '../i18n/preferences.js';
import { Link } from '../router.js';

export default function SkillsPage() {
  const { t } = usePreferences();
  const skills = useQuery({ queryKey: ['skills'], queryFn: api.skills });
  return (
    <div>
      <PageTitle>{t('skills.title')}</PageTitle>
      {skills.isPending ? <Loading /> : null}
      <ErrorNote error={skills.error} />
      {skills.data?.skills.length === 0 ? <Empty>{t('skills.empty')}</Empty> : null}
      <ul className="grid gap-3 md:grid-cols-2">
        {(skills.data?.skills ?? []).map((skill) => (
          <li key={skill.skill} className="card" data-testid="skill-row">
            <div className="flex flex-wrap items-center gap-2">
              <Link to={`/skills/${encodeURIComponent(skill.skill)}`} className="font-mono font-semibold text-orange-800 underline dark:text-orange-300">
                {skill.skill}
              </Link>
              <Ltr className="muted text-xs">{t('skills.version', { n: skill.version })}</Ltr>
              <StatusBadge status={skill.status} />
            </div>
            <p className="mt-1 text-sm" dir="auto">{skill.description}</p>
            <p className="muted mt-1 text-xs">
              {t('skills.inputs')}: <Ltr className="font-mono">{skill.inputs.join(', ') || '—'}</Ltr> · {t('skills.steps', { n: skill.steps })}
            </p>
          </li>
        ))}
      </ul>
    </div>
  );
}

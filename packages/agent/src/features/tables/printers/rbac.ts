import { age, ageColumn, arr, column, obj, str } from './format.ts';
import type { Printer } from './index.ts';

/** RoleBinding and ClusterRoleBinding (Roles and ClusterRoles have no server printer: CREATED AT). */
export const bindingPrinter: Printer = {
  columns: [
    column('ROLE'),
    ageColumn,
    column('USERS', 'string', 1),
    column('GROUPS', 'string', 1),
    column('SERVICEACCOUNTS', 'string', 1),
  ],
  print(object) {
    const roleRef = obj(object.roleRef);
    const subjects = arr(object.subjects);
    const named = (kind: string) =>
      subjects
        .filter((subject) => subject.kind === kind)
        .map((subject) =>
          kind === 'ServiceAccount' ? `${str(subject.namespace)}/${str(subject.name)}` : str(subject.name),
        )
        .join(', ');
    return {
      cells: [
        `${str(roleRef.kind)}/${str(roleRef.name)}`,
        age(object),
        named('User'),
        named('Group'),
        named('ServiceAccount'),
      ],
    };
  },
};
